import { escapeHtml, htmlPage } from '../http/html-page.js';
import type { ContentReply } from '../http/reply.js';
import type { AccountProblem } from './admin-account.js';
import { MIN_PASSWORD_LENGTH } from './schema.js';

/** What the form was sent with, shown again beside what is wrong with it (never the password). */
export interface SetupFormState {
  email?: string;
  name?: string;
  problems?: readonly AccountProblem[];
}

function problemsOf(state: SetupFormState, field: AccountProblem['field']): string {
  return (state.problems ?? [])
    .filter((problem) => problem.field === field)
    .map((problem) => `<p class="error" id="${field}-error">${escapeHtml(problem.message)}</p>`)
    .join('');
}

function field(state: SetupFormState, name: 'email' | 'name' | 'password', label: string, attributes: string): string {
  const value = name === 'password' ? '' : ` value="${escapeHtml(state[name] ?? '')}"`;
  const described = state.problems?.some((problem) => problem.field === name) ? ` aria-describedby="${name}-error"` : '';
  return `<label for="${name}">${label}</label>
<input id="${name}" name="${name}" ${attributes}${value}${described} required>
${problemsOf(state, name)}`;
}

/**
 * The form that makes the first administrator. It posts back to the address it was opened at (the
 * token stays in the link), as multipart, which the route wrapper reads.
 */
export function setupFormPage(state: SetupFormState = {}, status = 200): ContentReply {
  return htmlPage(
    'Make the first administrator',
    `<h1>Make the first administrator</h1>
<p>This account can do everything: it makes categories, invites agents and runs the store. This
page works once, within an hour of the start that printed its link.</p>
<form method="post" enctype="multipart/form-data">
${field(state, 'email', 'E-mail', 'type="email" autocomplete="username"')}
${field(state, 'name', 'Name', 'autocomplete="name"')}
${field(state, 'password', `Password (at least ${MIN_PASSWORD_LENGTH} characters)`, `type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}"`)}
<button type="submit">Create the administrator</button>
</form>`,
    status,
  );
}

/** Said once the administrator exists: the link is spent, and how to sign in. */
export function administratorCreatedPage(email: string): ContentReply {
  return htmlPage(
    'Administrator created',
    `<h1>Administrator created</h1>
<p><strong>${escapeHtml(email)}</strong> is the store's administrator. This link no longer works.</p>
<p>Sign in with <code>POST /api/auth/login</code> and your e-mail and password, for example from the
<a href="/api/docs">API reference</a> ("Try it out", then "Authorize" with the token it answers).</p>`,
    201,
  );
}
