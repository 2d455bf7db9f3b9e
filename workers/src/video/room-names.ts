/**
 * Names of the rooms a walk-through video makes. A room is named by where
 * in the video it was taken ("Video 0:03"); rooms taken within one second
 * of each other get tenths, then hundredths ("Video 0:03.5"), so no two
 * rooms of a visit share a name — the sheet, the viewer's links and the
 * room list tell them apart by name.
 */

/** "m:ss" with `decimals` digits of the second (cut, not rounded: 0:03.96 is still in second 3). */
export function videoClock(seconds: number, decimals = 0): string {
  const s = Math.max(0, seconds);
  const scale = 10 ** decimals;
  const whole = Math.floor(s * scale + 1e-6) / scale;
  const minutes = Math.floor(whole / 60);
  const rest = whole - minutes * 60;
  const [sec, frac] = rest.toFixed(decimals).split('.');
  return `${minutes}:${sec.padStart(2, '0')}${frac ? `.${frac}` : ''}`;
}

const MAX_DECIMALS = 3;

/**
 * One name per time (seconds into the video), in the same order, none equal
 * to another or to a name in `taken` (the visit's other rooms). Each name
 * is as short as it can be while unique; when even milliseconds collide,
 * a counter is added ("Video 0:03.500 (2)").
 */
export function videoRoomNames(times: number[], taken: Iterable<string> = []): string[] {
  const used = new Set(taken);
  const names: (string | null)[] = times.map(() => null);
  let pending = times.map((_, i) => i);
  for (let decimals = 0; decimals <= MAX_DECIMALS && pending.length; decimals++) {
    const label = new Map(pending.map((i) => [i, `Video ${videoClock(times[i], decimals)}`]));
    const count = new Map<string, number>();
    for (const l of label.values()) count.set(l, (count.get(l) ?? 0) + 1);
    const next: number[] = [];
    for (const i of pending) {
      const l = label.get(i)!;
      if (count.get(l) === 1 && !used.has(l)) {
        names[i] = l;
        used.add(l);
      } else next.push(i);
    }
    pending = next;
  }
  for (const i of pending) {
    const base = `Video ${videoClock(times[i], MAX_DECIMALS)}`;
    let n = 2;
    while (used.has(`${base} (${n})`)) n++;
    names[i] = `${base} (${n})`;
    used.add(names[i]!);
  }
  return names as string[];
}

/** A text of the plan (a room's name, "Kitchen", "Room B") at its centre, in sheet pixels. */
export interface PlanLabel {
  text: string;
  x: number;
  y: number;
}

const MAX_LABEL_LENGTH = 40;
const MAX_LABEL_WORDS = 4;

/**
 * Whether a text of a plan can name the area around it: short, with letters,
 * not a measure ("3.40", "12'6\"", "1:100", "25 m²"), a level ("+3.20") or a
 * sentence of the title block.
 */
export function isAreaLabel(text: string): boolean {
  const t = text.trim().replace(/\s+/g, ' ');
  if (t.length < 2 || t.length > MAX_LABEL_LENGTH) return false;
  if (t.split(' ').length > MAX_LABEL_WORDS) return false;
  if (!/\p{L}{2,}/u.test(t)) return false;
  if (/^[+±-]?\d/.test(t) && /^[\d\s.,:'"+±×x-]*(mm|cm|m|m²|m2|ft|in|sq\s?m)?$/i.test(t)) return false;
  return true;
}

/**
 * Names the rooms of a walk by the area of the plan they stand in: the label
 * nearest to each room within `reach` sheet pixels, numbered in walking
 * order ("Kitchen · 1", "Kitchen · 2"), continuing after numbers other rooms
 * of the visit already have. A room with no label in reach is named by its
 * time in the video (videoRoomNames). No name repeats another.
 */
export function areaRoomNames(
  rooms: { x: number; y: number; time: number }[],
  labels: PlanLabel[],
  reach: number,
  taken: Iterable<string> = [],
): string[] {
  const used = new Set(taken);
  const areas = labels.filter((l) => isAreaLabel(l.text)).map((l) => ({ ...l, text: l.text.trim().replace(/\s+/g, ' ') }));
  const nearest = rooms.map((r) => {
    let best: { text: string; d: number } | null = null;
    for (const l of areas) {
      const d = Math.hypot(l.x - r.x, l.y - r.y);
      if (d <= reach && (!best || d < best.d)) best = { text: l.text, d };
    }
    return best?.text ?? null;
  });
  const next = new Map<string, number>();
  const numberAfter = (area: string) => {
    if (!next.has(area)) {
      const prefix = `${area} · `;
      let max = 0;
      for (const name of used) if (name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length))) max = Math.max(max, Number(name.slice(prefix.length)));
      next.set(area, max + 1);
    }
    return next.get(area)!;
  };
  const names: (string | null)[] = nearest.map((area) => {
    if (!area) return null;
    let n = numberAfter(area);
    while (used.has(`${area} · ${n}`)) n++;
    next.set(area, n + 1);
    const name = `${area} · ${n}`;
    used.add(name);
    return name;
  });
  const rest = names.flatMap((n, i) => (n === null ? [i] : []));
  const byTime = videoRoomNames(rest.map((i) => rooms[i].time), used);
  rest.forEach((i, k) => (names[i] = byTime[k]));
  return names as string[];
}
