// Encoded polylines (Google's algorithm), as the API sends tracks and routes: at 6 decimals for tracks
// (about 0.1 m). Pure; shared by every app that draws or sends a line.

/** Polyline encoding (Google's algorithm) at `precision` decimals: 6 for tracks (about 0.1 m). */
export function encodePolyline(points, precision = 6) {
  const factor = 10 ** precision;
  let lastLat = 0, lastLon = 0, text = "";
  const encode = (value) => {
    let v = value < 0 ? ~(value << 1) : value << 1;
    let out = "";
    while (v >= 0x20) {
      out += String.fromCharCode((0x20 | (v & 0x1f)) + 63);
      v >>>= 5;
    }
    return out + String.fromCharCode(v + 63);
  };
  for (const { lat, lon } of points) {
    const y = Math.round(lat * factor), x = Math.round(lon * factor);
    text += encode(y - lastLat) + encode(x - lastLon);
    lastLat = y;
    lastLon = x;
  }
  return text;
}

/** Decodes an encoded polyline into [{ lat, lon }]. */
export function decodePolyline(text, precision = 6) {
  const factor = 10 ** precision;
  const points = [];
  let index = 0, lat = 0, lon = 0;
  const next = () => {
    let result = 0, shift = 0, byte;
    do {
      byte = text.charCodeAt(index++) - 63;
      result |= (byte & 0x1f) << shift;
      shift += 5;
    } while (byte >= 0x20);
    return result & 1 ? ~(result >> 1) : result >> 1;
  };
  while (index < text.length) {
    lat += next();
    lon += next();
    points.push({ lat: lat / factor, lon: lon / factor });
  }
  return points;
}
