import { useTranslation } from 'react-i18next';
import { formToast } from '../../lib/toast';

interface Props {
  codes: string[];
  /** "I have saved my codes": the only way on, so nobody skips past them unseen. */
  onDone: () => void;
  small?: boolean;
}

/** The ten recovery codes, shown this once after a setup (profile and sign-in), with a copy button. */
export function RecoveryCodesPanel({ codes, onDone, small = false }: Props) {
  const { t } = useTranslation();
  const size = small ? ' btn-sm' : '';
  return (
    <div role="region" aria-labelledby="two-factor-codes-heading">
      <h4 id="two-factor-codes-heading" className="h6">
        {t('Your recovery codes')}
      </h4>
      <p className="small">{t('Keep these codes somewhere safe. Each one signs you in once if you lose your phone. They are shown only now.')}</p>
      <ul className="list-unstyled row row-cols-2 g-1 font-monospace mb-3" dir="ltr" data-testid="recovery-codes">
        {codes.map((c) => (
          <li key={c} className="col">
            {c}
          </li>
        ))}
      </ul>
      <div className="d-flex flex-wrap gap-2">
        <button
          type="button"
          className={`btn btn-outline-secondary${size}`}
          onClick={() =>
            void navigator.clipboard
              ?.writeText(codes.join('\n'))
              .then(() => formToast('success', t('Recovery codes copied.')))
              .catch(() => formToast('error', t('Could not copy; write the codes down instead.')))
          }
        >
          {t('Copy codes')}
        </button>
        <button type="button" className={`btn btn-primary${size}`} onClick={onDone}>
          {t('I have saved my codes')}
        </button>
      </div>
    </div>
  );
}
