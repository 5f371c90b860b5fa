// Places the ladder's texts so that no two overlap: each label has positions (and shorter forms) to try, in
// order; labels are placed in order of importance, and one that finds no free room is left out (its figures
// stay in a tooltip). Widths are the ones measured in the figure's font; an estimate serves until then.

export interface LabelOption {
  text: string;
  x: number;
  /** Baseline. */
  y: number;
  anchor: 'start' | 'middle' | 'end';
}

export interface LabelSpec {
  id: string;
  className: string;
  options: LabelOption[];
  /** The label must lie inside this horizontal span (a band's), else it is not shown. */
  within?: [number, number];
}

export type Placed = LabelOption & { id: string; className: string };

/** The line box above and below the baseline at the figure's 12 px (as the browser lays it out, ~15 px in
 * all), and the gap kept between labels. */
const ASCENT = 12;
const DESCENT = 4;
const GAP = 3;
const ESTIMATED_CHAR = 7;

export const widthKey = (className: string, text: string) => `${className}|${text}`;

export function placeLabels(
  specs: LabelSpec[],
  widths: ReadonlyMap<string, number>,
  bounds: { left: number; right: number },
): Placed[] {
  const boxes: [number, number, number, number][] = [];
  const out: Placed[] = [];
  for (const spec of specs) {
    for (const o of spec.options) {
      const w = widths.get(widthKey(spec.className, o.text)) ?? o.text.length * ESTIMATED_CHAR;
      const x0 = o.anchor === 'start' ? o.x : o.anchor === 'end' ? o.x - w : o.x - w / 2;
      const box: [number, number, number, number] = [x0, o.y - ASCENT, x0 + w, o.y + DESCENT];
      if (box[0] < bounds.left || box[2] > bounds.right) continue;
      if (spec.within && (box[0] < spec.within[0] + GAP || box[2] > spec.within[1] - GAP)) continue;
      const free = boxes.every(
        (b) => box[2] + GAP <= b[0] || b[2] + GAP <= box[0] || box[3] <= b[1] || b[3] <= box[1],
      );
      if (!free) continue;
      boxes.push(box);
      out.push({ ...o, id: spec.id, className: spec.className });
      break;
    }
  }
  return out;
}
