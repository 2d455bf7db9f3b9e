import type { SpinnerSize } from '@sitewalk/proto';
import { useTranslation } from 'react-i18next';

const SIZE_CLASS: Record<SpinnerSize, string> = { sm: 'spinner-border-sm', md: '', lg: 'sw-spinner-lg' };

/** The 'Loading...' spinner of SPEC §2 in the sizes of SPEC §9. */
export function Spinner({ size = 'md', fullPage = false, hideText = false }: { size?: SpinnerSize; fullPage?: boolean; hideText?: boolean }) {
  const { t } = useTranslation();
  const body = (
    <div role="status" aria-live="polite" className={`d-inline-flex align-items-center gap-2 sw-spinner sw-spinner-${size}`}>
      <span className={`spinner-border text-primary ${SIZE_CLASS[size]}`} aria-hidden="true" />
      <span className={hideText ? 'visually-hidden' : 'text-body-secondary'}>{t('Loading...')}</span>
    </div>
  );
  return fullPage ? <div className="sw-fullpage-center">{body}</div> : body;
}
