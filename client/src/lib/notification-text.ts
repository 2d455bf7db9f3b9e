import { noticeInLanguage, type Notification } from '@sitewalk/proto';
import { useTranslation } from 'react-i18next';

/**
 * A notification's title and message in the language the screen shows: one
 * written as keys (title_key, message_key, params) is rendered here with
 * i18next, so switching language re-renders it and names keep their place
 * in either direction; an older one shows its stored text, translated when
 * it is a known text.
 */
export function useNotificationText(): (n: Notification) => { title: string; message: string } {
  const { t, i18n } = useTranslation();
  return (n) => noticeInLanguage(n, i18n.language, (key, vars) => t(key, vars));
}
