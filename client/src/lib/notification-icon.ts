/** Icons by notification type (SPEC §3): info, error, success; anything else gets the default. */
const ICONS: Record<string, { icon: string; tone: string }> = {
  info: { icon: 'bi-info-circle-fill', tone: 'info' },
  error: { icon: 'bi-exclamation-triangle-fill', tone: 'danger' },
  success: { icon: 'bi-check-circle-fill', tone: 'success' },
};

export const DEFAULT_NOTIFICATION_ICON = { icon: 'bi-bell-fill', tone: 'secondary' };

export const notificationIcon = (type: string | null | undefined) => (type && ICONS[type]) || DEFAULT_NOTIFICATION_ICON;

/** The unread items the top-bar dropdown shows: newest first, at most `max`. */
export function dropdownItems<N extends { is_read: boolean; created_at: string; id: number }>(items: readonly N[], max: number): N[] {
  return items
    .filter((n) => !n.is_read)
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id)
    .slice(0, max);
}
