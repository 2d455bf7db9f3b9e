/**
 * Popper settings for every dropdown menu: keep the menu 8 px inside the
 * screen on both sides, so a menu wider than the room beside its toggle (on
 * a phone, in either direction) slides back in instead of widening the page.
 */
export const MENU_INSIDE_SCREEN = {
  modifiers: [{ name: 'preventOverflow', options: { padding: 8, altBoundary: true } }],
};
