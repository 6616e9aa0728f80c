// The symbols of points of interest, drawn on canvas in a 16-pixel circle: short words (P, WC, M, i) or
// small shapes made of paths, all in one colour on the group's colour.

const shapes = {
  // Each path is in a 12 × 12 box centred on the symbol.
  cup: "M-4 -2h7v3a3 3 0 0 1-3 3h-1a3 3 0 0 1-3-3z M3 -1h1.2a1.3 1.3 0 0 1 0 2.6H3",
  fork: "M-3.5 -4.5v3.5a1.5 1.5 0 0 0 3 0v-3.5 M-2 -4.5v9 M2.5 -4.5c1.8 0 2 2.5 2 4.5h-2v4.5",
  glass: "M-3.5 -4h7l-3.5 4.5z M0 0.5v3.5 M-2 4h4",
  drop: "M0 -5c2.5 3.2 3.6 5 3.6 6.6a3.6 3.6 0 0 1-7.2 0c0-1.6 1.1-3.4 3.6-6.6z",
  bag: "M-4 -1.5h8l-0.8 6h-6.4z M-2 -1.5v-1a2 2 0 0 1 4 0v1",
  train: "M-3.5 -4.5h7v6.5h-7z M-3.5 -0.5h7 M-2.5 4.5l1-2.5 M2.5 4.5l-1-2.5",
  tram: "M-3 -3h6v6h-6z M-3 0h6 M-2 -5h4 M0 -5v2",
  bus: "M-4 -4h8v7h-8z M-4 0h8 M-3 3v1.5 M3 3v1.5",
  ferry: "M-4.5 1h9l-1.5 3h-6z M-2.5 1v-3h5v3 M0 -2v-2.5",
  cross: "M-1.5 -4.5h3v3h3v3h-3v3h-3v-3h-3v-3h3z",
  star: "M0 -5l1.5 3.2 3.5 0.4-2.6 2.4 0.7 3.5-3.1-1.8-3.1 1.8 0.7-3.5-2.6-2.4 3.5-0.4z",
  eye: "M-5 0c2.5-4 7.5-4 10 0c-2.5 4-7.5 4-10 0z M0 -1.6a1.6 1.6 0 1 1 0 3.2a1.6 1.6 0 1 1 0-3.2",
  bed: "M-5 3v-6 M-5 1h10v2 M-3 -1h7v2",
  bike: "M-2.8 2.2a2 2 0 1 1 0-0.01 M2.8 2.2a2 2 0 1 1 0-0.01 M-2.8 2.2l2-4h3l1.6 4 M-0.8 -1.8l-0.6-1.4h-1",
  fuel: "M-3.5 -4.5h5v9h-5z M-3.5 -1h5 M1.5 -2l2.5 1.5v4",
  roof: "M-5 0l5-4.5 5 4.5 M-3.5 -1v4.5 M3.5 -1v4.5",
  dot: "M0 -2a2 2 0 1 1 0 4a2 2 0 1 1 0-4",
};

const paths = new Map();
const path = (name) => {
  if (!paths.has(name)) paths.set(name, new Path2D(shapes[name]));
  return paths.get(name);
};

/** Draws the symbol of a point of interest centred at (x, y), `size` pixels across. */
export function drawSymbol(ctx, x, y, size, glyph, fill, ink, halo) {
  const r = size / 2;
  ctx.beginPath();
  ctx.arc(x, y, r, 0, Math.PI * 2);
  ctx.fillStyle = fill;
  ctx.fill();
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = halo;
  ctx.stroke();
  ctx.fillStyle = ink;
  ctx.strokeStyle = ink;
  if (shapes[glyph]) {
    ctx.save();
    ctx.translate(x, y);
    const scale = size / 16;
    ctx.scale(scale, scale);
    ctx.lineWidth = 1.3;
    ctx.lineJoin = "round";
    ctx.lineCap = "round";
    if (["cup", "drop", "bag", "cross", "star", "dot"].includes(glyph)) ctx.fill(path(glyph));
    else ctx.stroke(path(glyph));
    ctx.restore();
    return;
  }
  ctx.font = `700 ${glyph.length > 1 ? Math.round(size * 0.5) : Math.round(size * 0.68)}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillText(glyph, x, y + 0.5);
}
