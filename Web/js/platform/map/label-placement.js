// Where a map's names go: greedy placement in priority order, each name kept only where it collides with
// nothing placed before it, a street's name once per stretch of screen. Pure geometry on screen pixels, so
// node --test runs it (Tests/WebTests/label-placement.test.mjs).

/** Axis-aligned boxes { x0, y0, x1, y1 }; a grid of cells keeps collision checks near-constant. */
export class CollisionIndex {
  constructor(cell = 64) {
    this.cell = cell;
    this.cells = new Map();
  }

  keys(box) {
    const keys = [];
    for (let cx = Math.floor(box.x0 / this.cell); cx <= Math.floor(box.x1 / this.cell); cx += 1) {
      for (let cy = Math.floor(box.y0 / this.cell); cy <= Math.floor(box.y1 / this.cell); cy += 1) keys.push(`${cx},${cy}`);
    }
    return keys;
  }

  collides(boxes) {
    for (const box of boxes) {
      for (const key of this.keys(box)) {
        for (const other of this.cells.get(key) ?? []) {
          if (box.x0 < other.x1 && other.x0 < box.x1 && box.y0 < other.y1 && other.y0 < box.y1) return true;
        }
      }
    }
    return false;
  }

  insert(boxes) {
    for (const box of boxes) {
      for (const key of this.keys(box)) {
        if (!this.cells.has(key)) this.cells.set(key, []);
        this.cells.get(key).push(box);
      }
    }
  }
}

const box = (x, y, width, height, pad = 2) => ({ x0: x - pad, y0: y - pad, x1: x + width + pad, y1: y + height + pad });

/**
 * Along a polyline (flat [x0, y0, x1, y1, …] in screen pixels), the straightest stretch at least `length`
 * long, nearest the line's middle: { x, y, angle } of its centre (angle in radians, kept upright), or null.
 * A stretch may bend by at most `maxBend` radians between its segments.
 */
export function lineAnchor(points, length, { maxBend = 0.35, bounds } = {}) {
  const n = points.length / 2;
  if (n < 2) return null;
  const segments = [];
  let total = 0;
  for (let i = 0; i < n - 1; i += 1) {
    const dx = points[2 * i + 2] - points[2 * i];
    const dy = points[2 * i + 3] - points[2 * i + 1];
    const len = Math.hypot(dx, dy);
    segments.push({ i, len, angle: Math.atan2(dy, dx), start: total });
    total += len;
  }
  const middle = total / 2;
  let best = null;
  for (let first = 0; first < segments.length; first += 1) {
    let run = 0;
    for (let last = first; last < segments.length; last += 1) {
      if (last > first) {
        let bend = Math.abs(segments[last].angle - segments[last - 1].angle);
        if (bend > Math.PI) bend = 2 * Math.PI - bend;
        if (bend > maxBend) break;
      }
      run += segments[last].len;
      if (run < length) continue;
      // The centre of the stretch, walked along the segments.
      let along = run / 2;
      let k = first;
      while (along > segments[k].len && k < last) { along -= segments[k].len; k += 1; }
      const t = segments[k].len ? along / segments[k].len : 0;
      const x = points[2 * segments[k].i] + (points[2 * segments[k].i + 2] - points[2 * segments[k].i]) * t;
      const y = points[2 * segments[k].i + 1] + (points[2 * segments[k].i + 3] - points[2 * segments[k].i + 1]) * t;
      if (bounds && (x < bounds.x0 || y < bounds.y0 || x > bounds.x1 || y > bounds.y1)) break;
      const centre = segments[first].start + run / 2;
      const distance = Math.abs(centre - middle);
      if (!best || distance < best.distance) {
        const dx = points[2 * segments[last].i + 2] - points[2 * segments[first].i];
        const dy = points[2 * segments[last].i + 3] - points[2 * segments[first].i + 1];
        let angle = Math.atan2(dy, dx);
        if (angle > Math.PI / 2) angle -= Math.PI;
        if (angle < -Math.PI / 2) angle += Math.PI;
        best = { x, y, angle, distance };
      }
      break;
    }
  }
  return best && { x: best.x, y: best.y, angle: best.angle };
}

/** Boxes covering a rotated text of `width` × `height` centred at (x, y): one square per character height. */
export function rotatedBoxes(x, y, angle, width, height) {
  const boxes = [];
  const steps = Math.max(1, Math.ceil(width / height));
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  for (let s = 0; s < steps; s += 1) {
    const offset = -width / 2 + (s + 0.5) * (width / steps);
    const cx = x + cos * offset;
    const cy = y + sin * offset;
    boxes.push({ x0: cx - height / 2, y0: cy - height / 2, x1: cx + height / 2, y1: cy + height / 2 });
  }
  return boxes;
}

/**
 * Places labels. Each candidate is { text, priority, shape: "point" | "line", x, y (point), points (line),
 * width, height, icon (point: size of its symbol, 0 for none) }. Points try their name right of the symbol,
 * then left, then the symbol alone (when `iconAlone`); a line's name follows its straightest stretch, and a
 * name already placed within `repeatDistance` pixels is not repeated. Returns the placed labels with their
 * position: { candidate, x, y, angle, side }.
 */
export function placeLabels(candidates, { width, height, repeatDistance = 220, margin = 4 } = {}) {
  const index = new CollisionIndex();
  const placed = [];
  const byText = new Map();
  const view = { x0: margin, y0: margin, x1: width - margin, y1: height - margin };
  const inside = (boxes) => boxes.every((b) => b.x0 >= view.x0 && b.y0 >= view.y0 && b.x1 <= view.x1 && b.y1 <= view.y1);
  const sorted = [...candidates].sort((a, b) => a.priority - b.priority);
  for (const candidate of sorted) {
    const near = byText.get(candidate.text) ?? [];
    if (candidate.shape === "line") {
      const anchor = lineAnchor(candidate.points, candidate.width + 12, { bounds: view });
      if (!anchor) continue;
      if (near.some((p) => Math.hypot(p.x - anchor.x, p.y - anchor.y) < repeatDistance)) continue;
      const boxes = rotatedBoxes(anchor.x, anchor.y, anchor.angle, candidate.width, candidate.height);
      if (!inside(boxes) || index.collides(boxes)) continue;
      index.insert(boxes);
      placed.push({ candidate, x: anchor.x, y: anchor.y, angle: anchor.angle });
      near.push(anchor);
      byText.set(candidate.text, near);
      continue;
    }
    if (candidate.text && near.some((p) => Math.hypot(p.x - candidate.x, p.y - candidate.y) < repeatDistance / 2)) continue;
    const icon = candidate.icon ?? 0;
    const iconBox = icon ? box(candidate.x - icon / 2, candidate.y - icon / 2, icon, icon, 1) : null;
    const options = [];
    if (candidate.text) {
      if (icon) {
        const textRight = box(candidate.x + icon / 2 + 3, candidate.y - candidate.height / 2, candidate.width, candidate.height);
        const textLeft = box(candidate.x - icon / 2 - 3 - candidate.width, candidate.y - candidate.height / 2, candidate.width, candidate.height);
        options.push({ side: "right", boxes: [iconBox, textRight] }, { side: "left", boxes: [iconBox, textLeft] });
      } else {
        options.push({ side: "center", boxes: [box(candidate.x - candidate.width / 2, candidate.y - candidate.height / 2, candidate.width, candidate.height)] });
      }
    }
    if (icon && (candidate.iconAlone || !candidate.text)) options.push({ side: "none", boxes: [iconBox] });
    const choice = options.find((option) => inside(option.boxes) && !index.collides(option.boxes));
    if (!choice) continue;
    index.insert(choice.boxes);
    placed.push({ candidate, x: candidate.x, y: candidate.y, angle: 0, side: choice.side });
    if (candidate.text && choice.side !== "none") {
      near.push({ x: candidate.x, y: candidate.y });
      byText.set(candidate.text, near);
    }
  }
  return placed;
}
