import { Button, Modal } from 'react-bootstrap';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  show: boolean;
  /** Already translated texts. */
  title: string;
  body: string;
  confirmLabel: string;
  busy?: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/** Asks before something that cannot be undone (deleting a record, a cover, a category). */
export function ConfirmDialog({ show, title, body, confirmLabel, busy = false, onConfirm, onCancel }: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Modal show={show} onHide={() => !busy && onCancel()} centered aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel={t('Close')}>
        <Modal.Title id={titleId} className="h5">
          {title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>{body}</Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onCancel} disabled={busy} autoFocus>
          {t('Cancel')}
        </Button>
        <Button variant="danger" onClick={onConfirm} disabled={busy} data-testid="confirm-button">
          {busy && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
          {confirmLabel}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
