import type { ReactNode } from 'react';

interface Props {
  /** id of the heading, which labels the section. */
  headingId: string;
  title: ReactNode;
  /** A button or link at the end of the header. */
  action?: ReactNode;
  /** The card's body (a .card-body, a form, a list…). */
  children: ReactNode;
}

/** The card the list screens (/plans, /tiers, /invitations) are made of: a section labelled by its heading, with an optional action in the header. */
export function SectionCard({ headingId, title, action, children }: Props) {
  return (
    <section className="card border-0 shadow-sm" aria-labelledby={headingId}>
      <div className={`card-header bg-transparent${action ? ' d-flex flex-wrap align-items-center gap-2' : ''}`}>
        <h2 id={headingId} className={`h6 mb-0${action ? ' me-auto' : ''}`}>
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  );
}
