import { describe, expect, it } from 'vitest';
import { notificationMail, planInvitationMail } from './templates.js';

describe('mails name the site as it is called now', () => {
  it('a notification mail: the notice as subject and text, a button to it, signed with the site name, in the reader\'s language', () => {
    const en = notificationMail('en', { siteName: 'Abdali Works', name: 'Lina', title: 'New visit', message: 'Rania added a visit.\nSecond line.', link: 'https://example.com/visits/4' });
    expect(en.subject).toBe('New visit');
    expect(en.text).toBe('Hello Lina,\n\nRania added a visit.\nSecond line.\n\nOpen in Abdali Works: https://example.com/visits/4\n\nThe Abdali Works team');
    expect(en.html).toContain('dir="ltr"');
    const ar = notificationMail('ar', { siteName: 'Abdali Works', name: 'Lina', title: 'زيارة جديدة', message: 'أضاف Rania زيارة.', link: null });
    expect(ar.text).toBe('مرحباً Lina،\n\nأضاف Rania زيارة.\n\nفريق Abdali Works');
    expect(ar.html).toContain('dir="rtl"');
    expect(ar.html).not.toContain('<a ');
  });

  it('a plan invitation to someone without an account says which site, never a fixed product name', () => {
    const m = planInvitationMail('en', { siteName: 'Abdali Works', invitedBy: 'rania', planName: 'Team', link: 'https://example.com/register' });
    expect(m.subject).toBe('rania invited you to Abdali Works');
    expect(m.text).toContain('rania invited you to use their Abdali Works plan "Team".');
    expect(m.text).not.toContain('SiteWalk');
  });
});
