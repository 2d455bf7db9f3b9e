import { useEffect, useMemo, useState } from 'react';
import { Dropdown } from 'react-bootstrap';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { CONSTANTS, type Notification } from '@sitewalk/proto';
import { useNotificationActions, useNotificationsQuery } from '../notifications/use-notifications-query';
import { dropdownItems, notificationIcon } from '../../lib/notification-icon';
import { formatDateTime } from '../../lib/format';
import { useNotificationText } from '../../lib/notification-text';
import { openInNewTab } from '../../lib/app-navigation';
import { MENU_INSIDE_SCREEN } from '../../lib/menu-popper';

/**
 * Top-bar notifications (SPEC §2, §4): unread badge, at most 5 unread items,
 * 'See All Notifications'. A click on an item marks it read and opens its
 * link in a new tab.
 */
export function NotificationsDropdown() {
  const { t, i18n } = useTranslation();
  const textOf = useNotificationText();
  const navigate = useNavigate();
  const list = useNotificationsQuery().data;
  const unread = list?.unread ?? 0;
  const items = useMemo(() => dropdownItems(list?.items ?? [], CONSTANTS.dropdownUnreadMax), [list]);
  const { markRead } = useNotificationActions();
  // Controlled, so that any change of page closes the menu: left open, it covers the page it led to (a phone's whole screen).
  const [show, setShow] = useState(false);
  const { pathname } = useLocation();
  useEffect(() => setShow(false), [pathname]);

  const open = (n: Notification) => {
    void markRead(n);
    if (n.link) openInNewTab(n.link);
  };

  return (
    <Dropdown align="end" className="sw-notifications" show={show} onToggle={(next) => setShow(next)}>
      <Dropdown.Toggle variant="link" className="sw-topbar-btn position-relative" data-testid="notifications-toggle">
        {/* Named by its content (the word and the unread count), so the name holds what is seen. */}
        <i className="bi bi-bell" aria-hidden="true" />
        <span className="visually-hidden">{t('Notifications')}</span>
        {unread > 0 && (
          <span className="badge rounded-pill bg-danger sw-badge" data-testid="notifications-badge">
            {unread > 99 ? '99+' : unread}
            <span className="visually-hidden"> {t('unread notifications')}</span>
          </span>
        )}
      </Dropdown.Toggle>
      <Dropdown.Menu popperConfig={MENU_INSIDE_SCREEN} className="sw-notifications-menu shadow">
        <Dropdown.Header>{t('Notifications')}</Dropdown.Header>
        {items.length === 0 && <div className="px-3 py-2 text-body-secondary small">{t('No unread notifications')}</div>}
        {items.map((n) => {
          const { icon, tone } = notificationIcon(n.type);
          const text = textOf(n);
          return (
            <Dropdown.Item key={n.id} as="button" className="d-flex gap-2 align-items-start py-2 sw-notification-item" onClick={() => open(n)}>
              <i className={`bi ${icon} text-${tone} fs-5`} aria-hidden="true" />
              <span className="d-flex flex-column text-wrap">
                <span className="fw-semibold" dir="auto">{text.title}</span>
                <span className="small text-body-secondary sw-notification-message" dir="auto">{text.message}</span>
                <span className="small text-body-tertiary">{formatDateTime(n.created_at, i18n.language)}</span>
              </span>
            </Dropdown.Item>
          );
        })}
        <Dropdown.Divider />
        <div className="px-3 pb-1">
          <button
            type="button"
            className="btn btn-sm btn-outline-primary w-100"
            onClick={() => {
              setShow(false);
              navigate('/notifications');
            }}
          >
            {t('See All Notifications')}
          </button>
        </div>
      </Dropdown.Menu>
    </Dropdown>
  );
}
