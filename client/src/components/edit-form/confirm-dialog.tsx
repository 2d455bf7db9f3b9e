import { Button, Modal } from 'react-bootstrap';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  show: boolean;
  /** Already translated texts. */
  title: string;
  body: string;
  confirmLabel: string;
  /** Already translated; 'Cancel' when not given. */
  cancelLabel?: string;
  busy?: boolean;
  /** A class for the dialog and its backdrop, to lift them above other layers (the tour's overlay). */
  layerClassName?: string;
  onConfirm(): void;
  onCancel(): void;
  /** Called once the dialog has finished closing. */
  onClosed?(): void;
}

/** Asks before something that cannot be undone (deleting a record, a cover, a category). */
export function ConfirmDialog({ show, title, body, confirmLabel, cancelLabel, busy = false, layerClassName, onConfirm, onCancel, onClosed }: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Modal show={show} onHide={() => !busy && onCancel()} onExited={onClosed} centered aria-labelledby={titleId} className={layerClassName} backdropClassName={layerClassName}>
      <Modal.Header closeButton closeLabel={t('Close')}>
        <Modal.Title id={titleId} className="h5">
          {title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>{body}</Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onCancel} disabled={busy} autoFocus>
          {cancelLabel ?? t('Cancel')}
        </Button>
        <Button variant="danger" onClick={onConfirm} disabled={busy} data-testid="confirm-button">
          {busy && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
          {confirmLabel}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
