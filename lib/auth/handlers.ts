import { getDb, type Database } from '../db/client.js';
import { inTransaction } from '../db/transaction.js';
import { ApiError } from '../http/api-error.js';
import { created, ok, type DataReply } from '../http/reply.js';
import type { RequestContext } from '../http/endpoint.js';
import type { Input } from '../http/endpoint-input.js';
import { countWrongAgentCode } from './agent-code-limits.js';
import { consumeAgentCode, findUsableAgentCode, recordAgentCodeUser } from './agent-code-queries.js';
import { withPasswordPlace, type PasswordWork } from './bcrypt-worker.js';
import { deviceIsLive, issueDeviceToken, readDeviceToken, type TrustedDevice } from './device-tokens.js';
import { countUntrustedSignIn, limitDeviceFailures } from './password-guess-limits.js';
import { hashPassword, passwordMatches } from './passwords.js';
import { userSummary } from './presenter.js';
import { findCredentials, insertAgent } from './queries.js';
import type { LoginBody, RegisterBody } from './schema.js';
import { withSignInSlot } from './sign-in-slots.js';
import { signToken } from './tokens.js';
import type { SignInView, SignUpView } from './view.js';

const INVALID_CREDENTIALS = 'Invalid email or password';
const INVALID_AGENT_CODE = 'Invalid or expired agent code';

/**
 * Sign-up with an agent code: the account is always an AGENT, and the code's use is taken with it.
 * The address's budget of code checks is counted by the route before this runs (countAgentCodeCheck);
 * a wrong code also counts shop-wide. Everything cheap is checked before the password is hashed;
 * the code is checked again, atomically, when the account is written.
 */
export async function register(
  { body }: Input<{ body: typeof RegisterBody }>,
  ctx: RequestContext<'public'>,
): Promise<DataReply<SignUpView>> {
  const db = await getDb();
  if (!(await findUsableAgentCode(db, body.agentCode))) {
    await countWrongAgentCode();
    throw ApiError.of('INVALID_AGENT_CODE', INVALID_AGENT_CODE);
  }
  if (await findCredentials(db, body.email)) throw ApiError.duplicate('email');
  // Hashing is slow: done before the transaction so the code's row is never held locked meanwhile.
  const passwordHash = await withPasswordPlace(ctx.clientNetwork, false, (work) => hashPassword(body.password, work));
  const user = await inTransaction(db, async (tx) => {
    const code = await consumeAgentCode(tx, body.agentCode);
    if (!code) throw ApiError.of('INVALID_AGENT_CODE', INVALID_AGENT_CODE);
    const agent = await insertAgent(tx, { email: body.email, passwordHash, name: body.name, phone: body.phone });
    await recordAgentCodeUser(tx, code.id, agent.id);
    return agent;
  });
  const answer: SignUpView = { user: userSummary(user), token: await signToken(user) };
  return created(answer);
}

type Credentials = NonNullable<Awaited<ReturnType<typeof findCredentials>>>;

async function signedIn(db: Database, account: Credentials, network: string): Promise<DataReply<SignInView>> {
  const [token, deviceToken] = await Promise.all([signToken(account), issueDeviceToken(db, account.id, network)]);
  const answer: SignInView = { user: userSummary(account), token, deviceToken };
  return ok(answer);
}

/**
 * The device a sign-in's device token names, when the token is still live (recorded, not ended by a
 * password change nor dropped as the account's oldest) and of the very account the sign-in names.
 */
async function trustedDevice(db: Database, body: LoginBody): Promise<{ device: TrustedDevice; account: Credentials } | undefined> {
  if (body.deviceToken === undefined) return undefined;
  const device = await readDeviceToken(body.deviceToken);
  if (!device) return undefined;
  const [account, live] = await Promise.all([findCredentials(db, body.email), deviceIsLive(db, device)]);
  return live && account?.id === device.accountId ? { device, account } : undefined;
}

/**
 * A sign-in with the account's own device token is judged by that device's failures alone: its
 * owner gets in however many wrong guesses strangers made.
 */
async function signInFromDevice(
  db: Database,
  { device, account }: { device: TrustedDevice; account: Credentials },
  password: string,
  network: string,
  work: PasswordWork,
): Promise<DataReply<SignInView>> {
  const matched = await limitDeviceFailures(device.deviceId, () => passwordMatches(password, account.password, work));
  if (!matched) throw ApiError.of('INVALID_CREDENTIALS', INVALID_CREDENTIALS);
  return signedIn(db, account, network);
}

/** Every limit is counted before the one slow step, the password check (the same for unknown e-mails). */
async function signInUntrusted(db: Database, body: LoginBody, network: string, work: PasswordWork): Promise<DataReply<SignInView>> {
  await countUntrustedSignIn(body.email, network);
  const account = await findCredentials(db, body.email);
  if (!(await passwordMatches(body.password, account?.password, work)) || !account) throw ApiError.of('INVALID_CREDENTIALS', INVALID_CREDENTIALS);
  return signedIn(db, account, network);
}

/**
 * Sign-in, holding one of the network's slots for sign-ins under way (none free: 429 at once,
 * before any statement), then a place in the instance's queue of password work (all held: 503 at
 * once). A valid device token of the named account puts it under that device's own limit and
 * first in the queue; without one, the address's and the account's ceilings apply.
 */
export function login({ body }: Input<{ body: typeof LoginBody }>, ctx: RequestContext<'public'>): Promise<DataReply<SignInView>> {
  const network = ctx.clientNetwork;
  return withSignInSlot(network, async () => {
    const db = await getDb();
    const trusted = await trustedDevice(db, body);
    return withPasswordPlace(network, trusted !== undefined, (work) =>
      trusted ? signInFromDevice(db, trusted, body.password, network, work) : signInUntrusted(db, body, network, work),
    );
  });
}
