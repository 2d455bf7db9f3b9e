/**
 * How far rooms and snags placed on a sheet move when its plan is replaced:
 * their coordinates are pixels of the full-size plan, so a new drawing of
 * another size scales them by the change of width and height, keeping each
 * on the same spot of the drawing. Null when there is nothing to scale (the
 * sheet had no plan, or the same size).
 */
export function planScale(
  before: { width: number | null; height: number | null },
  after: { width: number; height: number },
): { x: number; y: number } | null {
  if (!before.width || !before.height) return null;
  if (before.width === after.width && before.height === after.height) return null;
  return { x: after.width / before.width, y: after.height / before.height };
}
