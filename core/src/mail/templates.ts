/**
 * The texts of the account mails, in English and Arabic. Each template gives
 * a subject, a plain-text body (what every mail reader shows) and a small
 * HTML body with the same words and a button for the link.
 */

export type MailLanguage = 'en' | 'ar';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

interface Parts {
  subject: string;
  greeting: string;
  lines: string[];
  action?: { label: string; url: string };
  footer: string;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

function render(p: Parts, lang: MailLanguage): MailContent {
  const text = [p.greeting, '', ...p.lines, ...(p.action ? ['', `${p.action.label}: ${p.action.url}`] : []), '', p.footer].join('\n');
  const dir = lang === 'ar' ? 'rtl' : 'ltr';
  const button = p.action
    ? `<p><a href="${escapeHtml(p.action.url)}" style="display:inline-block;padding:10px 18px;background:#2987f2;color:#fff;text-decoration:none;border-radius:4px">${escapeHtml(p.action.label)}</a></p>` +
      `<p style="font-size:12px;color:#666">${escapeHtml(p.action.url)}</p>`
    : '';
  const html =
    `<!doctype html><html lang="${lang}" dir="${dir}"><body style="font-family:sans-serif;line-height:1.5">` +
    `<p>${escapeHtml(p.greeting)}</p>` +
    p.lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('') +
    button +
    `<p style="color:#666">${escapeHtml(p.footer)}</p></body></html>`;
  return { subject: p.subject, text, html };
}

const hours = (ms: number) => Math.max(1, Math.round(ms / 3_600_000));
const days = (ms: number) => Math.max(1, Math.round(ms / 86_400_000));

interface Common {
  siteName: string;
  /** How the recipient is greeted: first name, else username. */
  name: string;
}

export function passwordResetMail(lang: MailLanguage, v: Common & { link: string; ttlMs: number }): MailContent {
  if (lang === 'ar') {
    return render(
      {
        subject: `${v.siteName}: إعادة تعيين كلمة المرور`,
        greeting: `مرحباً ${v.name}،`,
        lines: [
          `تلقّينا طلباً لإعادة تعيين كلمة المرور لحسابك في ${v.siteName}.`,
          `يعمل الرابط مرة واحدة فقط، ولمدة ${hours(v.ttlMs)} ساعة.`,
          'إذا لم تطلب ذلك، فتجاهل هذه الرسالة؛ تبقى كلمة مرورك كما هي.',
        ],
        action: { label: 'إعادة تعيين كلمة المرور', url: v.link },
        footer: `فريق ${v.siteName}`,
      },
      lang,
    );
  }
  return render(
    {
      subject: `${v.siteName}: reset your password`,
      greeting: `Hello ${v.name},`,
      lines: [
        `Someone asked to reset the password of your ${v.siteName} account.`,
        `The link works once, for ${hours(v.ttlMs)} hour(s).`,
        'If it was not you, ignore this mail: your password stays as it is.',
      ],
      action: { label: 'Reset my password', url: v.link },
      footer: `The ${v.siteName} team`,
    },
    lang,
  );
}

export function activationMail(lang: MailLanguage, v: Common & { link: string; ttlMs: number }): MailContent {
  if (lang === 'ar') {
    return render(
      {
        subject: `${v.siteName}: فعّل حسابك`,
        greeting: `مرحباً ${v.name}،`,
        lines: [
          `شكراً لتسجيلك في ${v.siteName}. افتح الرابط أدناه لتفعيل حسابك، ثم سجّل الدخول.`,
          `يعمل الرابط مرة واحدة فقط، ولمدة ${days(v.ttlMs)} يوم.`,
        ],
        action: { label: 'تفعيل الحساب', url: v.link },
        footer: `فريق ${v.siteName}`,
      },
      lang,
    );
  }
  return render(
    {
      subject: `${v.siteName}: activate your account`,
      greeting: `Hello ${v.name},`,
      lines: [
        `Thank you for signing up to ${v.siteName}. Open the link below to activate your account, then sign in.`,
        `The link works once, for ${days(v.ttlMs)} day(s).`,
      ],
      action: { label: 'Activate my account', url: v.link },
      footer: `The ${v.siteName} team`,
    },
    lang,
  );
}

/** `invitedBy` is left out when the link is sent again at the person's own request. */
export function invitationMail(lang: MailLanguage, v: Common & { link: string; ttlMs: number; invitedBy?: string }): MailContent {
  if (lang === 'ar') {
    return render(
      {
        subject: `${v.siteName}: دعوة للانضمام`,
        greeting: `مرحباً ${v.name}،`,
        lines: [
          `${v.invitedBy ? `دعاك ${v.invitedBy}` : 'أنت مدعو'} إلى ${v.siteName}. افتح الرابط أدناه لاختيار اسم المستخدم وكلمة المرور.`,
          `يعمل الرابط مرة واحدة فقط، ولمدة ${days(v.ttlMs)} يوم.`,
        ],
        action: { label: 'قبول الدعوة', url: v.link },
        footer: `فريق ${v.siteName}`,
      },
      lang,
    );
  }
  return render(
    {
      subject: `${v.siteName}: you are invited`,
      greeting: `Hello ${v.name},`,
      lines: [
        `${v.invitedBy ? `${v.invitedBy} invited you` : 'You are invited'} to ${v.siteName}. Open the link below to choose your username and password.`,
        `The link works once, for ${days(v.ttlMs)} day(s).`,
      ],
      action: { label: 'Accept the invitation', url: v.link },
      footer: `The ${v.siteName} team`,
    },
    lang,
  );
}

export function registrationNoticeMail(
  lang: MailLanguage,
  v: { siteName: string; username: string; email: string; awaitingActivation: boolean; link: string },
): MailContent {
  if (lang === 'ar') {
    return render(
      {
        subject: `${v.siteName}: تسجيل جديد (${v.username})`,
        greeting: 'مرحباً،',
        lines: [
          `أنشأ مستخدم جديد حساباً في ${v.siteName}.`,
          `اسم المستخدم: ${v.username}`,
          `البريد الإلكتروني: ${v.email}`,
          v.awaitingActivation ? 'الحساب بانتظار التفعيل عبر البريد الإلكتروني.' : 'الحساب مفعّل.',
        ],
        action: { label: 'عرض المستخدمين', url: v.link },
        footer: `فريق ${v.siteName}`,
      },
      lang,
    );
  }
  return render(
    {
      subject: `${v.siteName}: new registration (${v.username})`,
      greeting: 'Hello,',
      lines: [
        `A new user signed up to ${v.siteName}.`,
        `Username: ${v.username}`,
        `E-mail: ${v.email}`,
        v.awaitingActivation ? 'The account waits for its e-mail activation.' : 'The account is active.',
      ],
      action: { label: 'See the users', url: v.link },
      footer: `The ${v.siteName} team`,
    },
    lang,
  );
}

/**
 * A project invitation to someone without an account yet: the link opens the
 * activation screen (username and password); the invitation then waits in
 * "My invitations".
 */
export function projectInvitationMail(
  lang: MailLanguage,
  v: { siteName: string; invitedBy: string; projectName: string; role: string; link: string; ttlMs: number },
): MailContent {
  if (lang === 'ar') {
    return render(
      {
        subject: `${v.siteName}: دعوة للانضمام إلى المشروع ${v.projectName}`,
        greeting: 'مرحباً،',
        lines: [
          `دعاك ${v.invitedBy} للانضمام إلى فريق المشروع "${v.projectName}" في ${v.siteName}.`,
          'افتح الرابط أدناه لإنشاء حسابك باختيار اسم المستخدم وكلمة المرور، ثم اقبل الدعوة من صفحة "دعواتي".',
          `يعمل الرابط مرة واحدة فقط، ولمدة ${days(v.ttlMs)} يوم.`,
        ],
        action: { label: 'إنشاء الحساب', url: v.link },
        footer: `فريق ${v.siteName}`,
      },
      lang,
    );
  }
  return render(
    {
      subject: `${v.siteName}: join the project ${v.projectName}`,
      greeting: 'Hello,',
      lines: [
        `${v.invitedBy} invited you to join the team of the project "${v.projectName}" on ${v.siteName} as ${v.role}.`,
        'Open the link below to create your account (choose a username and a password), then accept the invitation from My invitations.',
        `The link works once, for ${days(v.ttlMs)} day(s).`,
      ],
      action: { label: 'Create my account', url: v.link },
      footer: `The ${v.siteName} team`,
    },
    lang,
  );
}

/**
 * The e-mail of a notification, in the recipient's language: the notice's
 * title as the subject, its message, a button to its place in the app, and
 * the site's own name (setting `name`) in the signature.
 */
export function notificationMail(lang: MailLanguage, v: Common & { title: string; message: string; link: string | null }): MailContent {
  const lines = v.message.split('\n').filter((l) => l.trim());
  if (lang === 'ar') {
    return render(
      { subject: v.title, greeting: `مرحباً ${v.name}،`, lines, ...(v.link ? { action: { label: `فتح في ${v.siteName}`, url: v.link } } : {}), footer: `فريق ${v.siteName}` },
      lang,
    );
  }
  return render(
    { subject: v.title, greeting: `Hello ${v.name},`, lines, ...(v.link ? { action: { label: `Open in ${v.siteName}`, url: v.link } } : {}), footer: `The ${v.siteName} team` },
    lang,
  );
}

/** An invitation into someone's subscription plan, to an address with no account yet: sign up, then accept it on the profile. */
export function planInvitationMail(lang: MailLanguage, v: { siteName: string; invitedBy: string; planName: string; link: string }): MailContent {
  if (lang === 'ar') {
    return render(
      {
        subject: `${v.siteName}: دعاك ${v.invitedBy} إلى خطته`,
        greeting: 'مرحباً،',
        lines: [`دعاك ${v.invitedBy} لاستخدام خطته «${v.planName}» في ${v.siteName}.`, 'أنشئ حساباً بعنوان البريد هذا، ثم اقبل الدعوة من ملفك الشخصي.'],
        action: { label: 'إنشاء الحساب', url: v.link },
        footer: `فريق ${v.siteName}`,
      },
      lang,
    );
  }
  return render(
    {
      subject: `${v.invitedBy} invited you to ${v.siteName}`,
      greeting: 'Hello,',
      lines: [`${v.invitedBy} invited you to use their ${v.siteName} plan "${v.planName}".`, 'Create an account with this e-mail address, then accept the invitation on your profile.'],
      action: { label: 'Create my account', url: v.link },
      footer: `The ${v.siteName} team`,
    },
    lang,
  );
}
