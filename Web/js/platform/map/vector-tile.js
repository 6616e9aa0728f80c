// Decodes Mapbox Vector Tiles 2.1 (the protobuf the server's /api/streets/basemap tiles are): layers with their
// key and value tables, features with MoveTo/LineTo/ClosePath geometry on zigzag deltas. Pure: no DOM, so
// node --test runs it (Tests/WebTests/vector-tile.test.mjs).

const textDecoder = new TextDecoder();

/** A cursor over protobuf wire format. */
class Reader {
  constructor(bytes, start = 0, end = bytes.length) {
    this.bytes = bytes;
    this.pos = start;
    this.end = end;
  }

  get done() { return this.pos >= this.end; }

  varint() {
    let value = 0;
    let shift = 0;
    for (;;) {
      if (this.pos >= this.end) throw new Error("vector tile: a number ends early");
      const byte = this.bytes[this.pos++];
      // Past 2^53 JavaScript numbers lose precision; tile values never get there.
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
      shift += 7;
      if (shift > 63) throw new Error("vector tile: a number is too long");
    }
  }

  key() {
    const key = this.varint();
    return { field: Math.floor(key / 8), wire: key % 8 };
  }

  /** A length-delimited field as a sub-reader. */
  message() {
    const length = this.varint();
    const start = this.pos;
    this.pos += length;
    if (this.pos > this.end) throw new Error("vector tile: a field runs past the end");
    return new Reader(this.bytes, start, this.pos);
  }

  string() {
    const sub = this.message();
    return textDecoder.decode(this.bytes.subarray(sub.pos, sub.end));
  }

  packed() {
    const sub = this.message();
    const values = [];
    while (!sub.done) values.push(sub.varint());
    return values;
  }

  skip(wire) {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.message();
    else if (wire === 5) this.pos += 4;
    else throw new Error(`vector tile: unknown wire type ${wire}`);
    if (this.pos > this.end) throw new Error("vector tile: a field runs past the end");
  }
}

const zigzag = (n) => (n % 2 === 1 ? -(n + 1) / 2 : n / 2);

function decodeValue(reader) {
  let value = null;
  while (!reader.done) {
    const { field, wire } = reader.key();
    if (field === 1 && wire === 2) value = reader.string();
    else if (field === 2 && wire === 5) { value = new DataView(reader.bytes.buffer, reader.bytes.byteOffset + reader.pos, 4).getFloat32(0, true); reader.pos += 4; }
    else if (field === 3 && wire === 1) { value = new DataView(reader.bytes.buffer, reader.bytes.byteOffset + reader.pos, 8).getFloat64(0, true); reader.pos += 8; }
    else if ((field === 4 || field === 5) && wire === 0) value = reader.varint();
    else if (field === 6 && wire === 0) value = zigzag(reader.varint());
    else if (field === 7 && wire === 0) value = reader.varint() !== 0;
    else reader.skip(wire);
  }
  return value;
}

/**
 * Geometry commands to parts: each part a flat array [x0, y0, x1, y1, …] in tile units. Points: one part per
 * point; lines: one per line; polygons: one per ring (not repeating its first point).
 */
export function decodeGeometry(commands) {
  const parts = [];
  let x = 0;
  let y = 0;
  let i = 0;
  while (i < commands.length) {
    const id = commands[i] & 7;
    const count = commands[i] >> 3;
    i += 1;
    if (id === 1 || id === 2) {
      if (i + 2 * count > commands.length) throw new Error("vector tile: geometry ends early");
      for (let n = 0; n < count; n += 1) {
        x += zigzag(commands[i]);
        y += zigzag(commands[i + 1]);
        i += 2;
        if (id === 1) parts.push([]);
        if (!parts.length) throw new Error("vector tile: LineTo before MoveTo");
        parts[parts.length - 1].push(x, y);
      }
    } else if (id !== 7) {
      throw new Error(`vector tile: unknown geometry command ${id}`);
    }
  }
  return parts;
}

const types = { 1: "point", 2: "line", 3: "polygon" };

function decodeLayer(reader) {
  const layer = { name: "", extent: 4096, features: [] };
  const keys = [];
  const values = [];
  const raw = [];
  while (!reader.done) {
    const { field, wire } = reader.key();
    if (field === 1 && wire === 2) layer.name = reader.string();
    else if (field === 2 && wire === 2) {
      const feature = reader.message();
      const item = { tags: [], type: 0, geometry: [] };
      while (!feature.done) {
        const inner = feature.key();
        if (inner.field === 2 && inner.wire === 2) item.tags = feature.packed();
        else if (inner.field === 3 && inner.wire === 0) item.type = feature.varint();
        else if (inner.field === 4 && inner.wire === 2) item.geometry = feature.packed();
        else feature.skip(inner.wire);
      }
      raw.push(item);
    } else if (field === 3 && wire === 2) keys.push(reader.string());
    else if (field === 4 && wire === 2) values.push(decodeValue(reader.message()));
    else if (field === 5 && wire === 0) layer.extent = reader.varint();
    else reader.skip(wire);
  }
  for (const item of raw) {
    const properties = {};
    for (let t = 0; t + 1 < item.tags.length; t += 2) {
      const key = keys[item.tags[t]];
      if (key !== undefined) properties[key] = values[item.tags[t + 1]];
    }
    const type = types[item.type];
    if (!type) continue;
    layer.features.push({ type, properties, parts: decodeGeometry(item.geometry) });
  }
  return layer;
}

/** Decodes a tile (ArrayBuffer or Uint8Array) into { layerName: { name, extent, features } }. */
export function decodeVectorTile(data) {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  const reader = new Reader(bytes);
  const layers = {};
  while (!reader.done) {
    const { field, wire } = reader.key();
    if (field === 3 && wire === 2) {
      const layer = decodeLayer(reader.message());
      layers[layer.name] = layer;
    } else {
      reader.skip(wire);
    }
  }
  return layers;
}
