import { tk } from './i18n-keys';

/**
 * Footer links (SPEC §2): a value starting with http opens externally in a
 * new tab; any other value renders as a button with no action.
 */
export const isExternalLink = (value: string | null | undefined): value is string => !!value && /^https?:\/\//i.test(value.trim());

export interface FooterLink {
  label: string;
  href: string | null;
}

/** Terms, privacy and the configurable footer links, in order, those with a value. */
export function footerLinks(s: {
  terms_and_conditions?: string;
  privacy_policy?: string;
  footer_link_1?: string;
  footer_value_1?: string;
  footer_link_2?: string;
  footer_value_2?: string;
  footer_link_3?: string;
  footer_value_3?: string;
}): FooterLink[] {
  const out: FooterLink[] = [
    { label: tk('Terms and Conditions'), href: isExternalLink(s.terms_and_conditions) ? s.terms_and_conditions.trim() : null },
    { label: tk('Privacy Policy'), href: isExternalLink(s.privacy_policy) ? s.privacy_policy.trim() : null },
  ];
  for (const [label, value] of [
    [s.footer_link_1, s.footer_value_1],
    [s.footer_link_2, s.footer_value_2],
    [s.footer_link_3, s.footer_value_3],
  ]) {
    if (label && label.trim()) out.push({ label: label.trim(), href: isExternalLink(value) ? value.trim() : null });
  }
  return out;
}
