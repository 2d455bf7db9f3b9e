import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { NOTIFICATIONS_PER_PAGE, useNotificationActions, useNotificationsQuery } from '../../components/notifications/use-notifications-query';
import { notificationIcon } from '../../lib/notification-icon';
import { formatDateTime } from '../../lib/format';
import { useNotificationText } from '../../lib/notification-text';
import { openInNewTab } from '../../lib/app-navigation';
import { Spinner } from '../../components/spinner';
import { pageOf } from '../../lib/page-window';

/** /notifications: the full list, a page at a time (the page in the address); mark read singly or all, delete, delete read. */
export default function NotificationsPage() {
  const { t, i18n } = useTranslation();
  const textOf = useNotificationText();
  const [params, setParams] = useSearchParams();
  const query = useNotificationsQuery(pageOf(params.get('page')));
  const { items, total, page, unread } = query.data ?? { items: [], total: 0, page: 1, unread: 0 };
  const { markRead, markAllRead, remove, deleteRead } = useNotificationActions();
  const pages = Math.max(1, Math.ceil(total / NOTIFICATIONS_PER_PAGE));
  const hasRead = items.some((n) => n.is_read);
  const goTo = (next: number) => setParams(next > 1 ? { page: String(next) } : {});

  return (
    <section className="card border-0 shadow-sm" aria-labelledby="notifications-heading">
      <div className="card-header bg-transparent d-flex flex-wrap align-items-center gap-2">
        <h2 id="notifications-heading" className="h6 mb-0 me-auto">
          {t('All notifications')} {unread > 0 && <span className="badge bg-primary ms-1">{t('{n} unread', { n: unread })}</span>}
        </h2>
        <button type="button" className="btn btn-sm btn-outline-primary" onClick={() => void markAllRead()} disabled={unread === 0}>
          <i className="bi bi-check2-all me-1" aria-hidden="true" />
          {t('Mark all as read')}
        </button>
        <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => void deleteRead()} disabled={!hasRead}>
          <i className="bi bi-trash me-1" aria-hidden="true" />
          {t('Delete read')}
        </button>
      </div>
      <div className="card-body p-0">
        {query.isPending ? (
          <div className="p-4">
            <Spinner />
          </div>
        ) : items.length === 0 ? (
          <div className="text-center text-body-secondary py-5" data-testid="notifications-empty">
            <i className="bi bi-bell-slash fs-1 d-block mb-2" aria-hidden="true" />
            {t('You have no notifications.')}
          </div>
        ) : (
          <ul className="list-group list-group-flush" aria-label={t('Notifications')}>
            {items.map((n) => {
              const { icon, tone } = notificationIcon(n.type);
              const text = textOf(n);
              return (
                <li key={n.id} className={`list-group-item d-flex gap-3 align-items-start py-3${n.is_read ? '' : ' sw-unread'}`} data-testid="notification-item">
                  <i className={`bi ${icon} text-${tone} fs-4`} aria-hidden="true" />
                  <div className="flex-grow-1 min-w-0">
                    <div className="fw-semibold">
                      <span dir="auto">{text.title}</span> {!n.is_read && <span className="badge bg-primary-subtle text-primary-emphasis ms-1">{t('New')}</span>}
                    </div>
                    <div className="text-body-secondary sw-notification-message" dir="auto">{text.message}</div>
                    <div className="small text-body-tertiary">{formatDateTime(n.created_at, i18n.language)}</div>
                  </div>
                  <div className="d-flex flex-wrap gap-1 justify-content-end">
                    {n.link && (
                      <a
                        className="btn btn-sm btn-link"
                        href={n.link}
                        target="_blank"
                        rel="noreferrer"
                        onClick={(e) => {
                          e.preventDefault();
                          void markRead(n);
                          openInNewTab(n.link as string);
                        }}
                      >
                        {t('Open')}
                      </a>
                    )}
                    {!n.is_read && (
                      <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => void markRead(n)} aria-label={`${t('Mark as read')}: ${text.title}`}>
                        <i className="bi bi-check2" aria-hidden="true" />
                      </button>
                    )}
                    <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => void remove(n.id)} aria-label={`${t('Delete')}: ${text.title}`}>
                      <i className="bi bi-trash" aria-hidden="true" />
                    </button>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </div>
      {pages > 1 && (
        <nav className="card-footer bg-transparent" aria-label={t('Pages')}>
          <ul className="pagination pagination-sm mb-0 justify-content-center">
            <li className={`page-item${page <= 1 ? ' disabled' : ''}`}>
              <button type="button" className="page-link" onClick={() => goTo(page - 1)} disabled={page <= 1}>
                {t('Previous')}
              </button>
            </li>
            <li className="page-item disabled">
              <span className="page-link">{t('Page {page} of {pages}', { page, pages })}</span>
            </li>
            <li className={`page-item${page >= pages ? ' disabled' : ''}`}>
              <button type="button" className="page-link" onClick={() => goTo(page + 1)} disabled={page >= pages}>
                {t('Next')}
              </button>
            </li>
          </ul>
        </nav>
      )}
    </section>
  );
}
