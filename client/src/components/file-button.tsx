import { useRef, type ReactNode } from 'react';

interface Base {
  accept: string;
  disabled?: boolean;
  className: string;
  /** Accessible name of the file input (tests and assistive technology find it by this). */
  inputLabel: string;
  children: ReactNode;
}

/** One file (`onFile`), or with `multiple` several at once (`onFiles`). */
type Props = Base & ({ multiple?: false; onFile(file: File): void } | { multiple: true; onFiles(files: File[]): void });

/**
 * A real button that opens the file chooser: it takes keyboard focus and
 * shows its focus ring, which a label wrapped around a hidden input does not.
 */
export function FileButton(props: Props) {
  const { accept, disabled, className, inputLabel, children } = props;
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className={className} disabled={disabled} onClick={() => input.current?.click()}>
        {children}
      </button>
      <input
        ref={input}
        type="file"
        multiple={props.multiple}
        className="d-none"
        accept={accept}
        tabIndex={-1}
        aria-label={inputLabel}
        disabled={disabled}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          // Cleared, so choosing the same file again is a change too.
          e.target.value = '';
          if (!files.length) return;
          if (props.multiple) props.onFiles(files);
          else props.onFile(files[0]);
        }}
      />
    </>
  );
}
