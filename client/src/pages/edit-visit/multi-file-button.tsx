import { useRef, type ReactNode } from 'react';

interface Props {
  accept: string;
  disabled?: boolean;
  className: string;
  /** Accessible name of the file input (tests and assistive technology find it by this). */
  inputLabel: string;
  onFiles(files: File[]): void;
  children: ReactNode;
}

/** A real, focusable button that opens the file chooser for several files at once. */
export function FileButton({ accept, disabled, className, inputLabel, onFiles, children }: Props) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className={className} disabled={disabled} onClick={() => input.current?.click()}>
        {children}
      </button>
      <input
        ref={input}
        type="file"
        multiple
        className="d-none"
        accept={accept}
        tabIndex={-1}
        aria-label={inputLabel}
        disabled={disabled}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          if (files.length) onFiles(files);
        }}
      />
    </>
  );
}
