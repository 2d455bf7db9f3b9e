import { createRoot } from 'react-dom/client';
import { ConfirmDialog } from '../components/edit-form/confirm-dialog';

let asking: Promise<boolean> | null = null;

/**
 * Asks with the app's own confirmation dialog (not the browser's `confirm()`)
 * whether to stop the onboarding tour; true when the person confirms. The
 * tour's code runs outside React, so the dialog gets a root of its own,
 * above the tour's overlay, and is removed once answered. Asked twice at
 * once (the close button, then Esc), it is one question.
 */
export function askToStopTour(texts: { title: string; body: string; confirm: string; cancel: string }): Promise<boolean> {
  if (asking) return asking;
  asking = new Promise<boolean>((resolve) => {
    const host = document.createElement('div');
    document.body.appendChild(host);
    const root = createRoot(host);
    const render = (show: boolean, answer?: boolean) =>
      root.render(
        <ConfirmDialog
          show={show}
          title={texts.title}
          body={texts.body}
          confirmLabel={texts.confirm}
          cancelLabel={texts.cancel}
          layerClassName="sw-above-tour"
          onConfirm={() => finish(true)}
          onCancel={() => finish(false)}
          onClosed={() => {
            if (answer === undefined) return;
            root.unmount();
            host.remove();
          }}
        />,
      );
    const finish = (stop: boolean) => {
      asking = null;
      render(false, stop);
      resolve(stop);
    };
    render(true);
  });
  return asking;
}
