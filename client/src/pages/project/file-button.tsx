import { useRef, type ReactNode } from 'react';

interface Props {
  accept: string;
  disabled?: boolean;
  className: string;
  /** Accessible name of the file input (tests and assistive technology find it by this). */
  inputLabel: string;
  onFile(file: File): void;
  children: ReactNode;
}

/**
 * A real button that opens the file chooser: it takes keyboard focus and
 * shows its focus ring, which a label wrapped around a hidden input does not.
 */
export function FileButton({ accept, disabled, className, inputLabel, onFile, children }: Props) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className={className} disabled={disabled} onClick={() => input.current?.click()}>
        {children}
      </button>
      <input
        ref={input}
        type="file"
        className="d-none"
        accept={accept}
        tabIndex={-1}
        aria-label={inputLabel}
        disabled={disabled}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) onFile(file);
        }}
      />
    </>
  );
}
