import type { Resend } from 'resend';
import { config } from '../config.js';
import { log } from '../log.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

const SEND_TIMEOUT_MS = 10_000;

let client: Promise<Resend> | undefined;

/** One client per instance, imported on first use; the SDK reads `RESEND_BASE_URL` when constructed. */
function resendClient(apiKey: string): Promise<Resend> {
  client ??= import('resend').then(({ Resend }) => new Resend(apiKey));
  return client;
}

/**
 * Sends an e-mail through resend when `RESEND_API_KEY` is set; otherwise the e-mail is simulated:
 * logged, with its body only outside production (bodies carry codes). Never throws: callers answer
 * the same whether or not the e-mail went out, so a failure is only logged.
 */
export async function sendMail(message: MailMessage): Promise<void> {
  const cfg = config();
  if (!cfg.resendApiKey) {
    log.info('e-mail simulated (RESEND_API_KEY is not set)', {
      to: message.to,
      subject: message.subject,
      ...(cfg.production ? {} : { text: message.text }),
    });
    return;
  }
  try {
    const resend = await resendClient(cfg.resendApiKey);
    const { data, error } = await resend.emails.send(
      { from: cfg.mailFrom, to: message.to, subject: message.subject, text: message.text },
      { signal: AbortSignal.timeout(SEND_TIMEOUT_MS) },
    );
    if (error) {
      log.error('e-mail could not be sent', { to: message.to, subject: message.subject, reason: error.message, name: error.name });
      return;
    }
    log.info('e-mail sent', { to: message.to, subject: message.subject, id: data?.id });
  } catch (error) {
    log.error('e-mail could not be sent', { to: message.to, subject: message.subject, error });
  }
}
