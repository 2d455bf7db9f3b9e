import type { User } from '@sitewalk/proto';
import { isLanguage } from '../i18n/language';
import { useUiStore } from '../stores/ui.store';

/**
 * After a sign-in (password or a service): a language picked on the sign-in
 * screen becomes the account's; otherwise the account's language follows the
 * user to every browser they sign in on.
 */
export function settleLanguageAfterSignIn(user: Pick<User, 'language'>): void {
  const ui = useUiStore.getState();
  if (ui.languagePickedSignedOut) {
    useUiStore.setState({ languagePickedSignedOut: false });
    if (user.language !== ui.language) void ui.setLanguage(ui.language, { saveOnServer: true });
  } else if (isLanguage(user.language) && user.language !== ui.language) {
    void ui.setLanguage(user.language);
  }
}
