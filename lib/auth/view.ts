import * as v from 'valibot';
import { RecordId, RoleView, Timestamp } from '../http/common-views.js';

const Email = v.pipe(v.string(), v.email(), v.examples(['sara.tesfaye@example.com']));

/** What sign-up and sign-in answer about the user. */
export const UserSummaryView = v.pipe(
  v.object({ id: RecordId, email: Email, name: v.pipe(v.string(), v.examples(['Sara Tesfaye'])), role: RoleView }),
  v.title('UserSummary'),
);

export type UserSummaryView = v.InferOutput<typeof UserSummaryView>;

const Jwt = v.pipe(v.string(), v.description('A bearer token: send it as `Authorization: Bearer <token>`.'), v.examples(['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI4ZjE0In0.c2lnbmF0dXJl']));

export const SignUpView = v.object({ user: UserSummaryView, token: Jwt });

export type SignUpView = v.InferOutput<typeof SignUpView>;

export const SignInView = v.object({
  user: UserSummaryView,
  token: Jwt,
  deviceToken: v.pipe(
    v.string(),
    v.description('Keep it on this device and send it with the next sign-in (see the description).'),
    v.examples(['eyJhbGciOiJIUzI1NiJ9.eyJkZXZpY2UiOiJjNGE3In0.ZGV2aWNlLXNpZ25hdHVyZQ']),
  ),
});

export type SignInView = v.InferOutput<typeof SignInView>;

const Link = v.nullable(v.string());

/** What anyone may see of a user (the storefront's agent): never e-mail, role or secrets. */
export const PublicProfileView = v.object({
  id: RecordId,
  name: v.pipe(v.string(), v.examples(['Sara Tesfaye'])),
  phone: v.pipe(v.string(), v.examples(['+251911234567'])),
  profileImage: v.nullable(v.pipe(v.string(), v.url())),
  social_1: Link,
  social_2: Link,
  social_3: Link,
  social_4: Link,
  social_5: Link,
  social_6: Link,
  social_7: Link,
  social_8: Link,
  website: Link,
  customSocials: v.array(v.object({ name: v.string(), url: v.string() })),
});

/** The original client's names, added with LEGACY_CLIENT_FIELDS=1. */
const LegacyNameFields = {
  firstName: v.optional(v.pipe(v.string(), v.description('With LEGACY_CLIENT_FIELDS=1 only: the first word of `name`.'))),
  lastName: v.optional(v.pipe(v.string(), v.description('With LEGACY_CLIENT_FIELDS=1 only: the rest of `name`.'))),
};

export const ProfileView = v.pipe(v.object({ ...PublicProfileView.entries, email: Email, role: RoleView, ...LegacyNameFields }), v.title('Profile'));

export type ProfileView = v.InferOutput<typeof ProfileView>;

/** An agent in the administrators' list: the profile plus account dates. */
export const AgentView = v.pipe(v.object({ ...PublicProfileView.entries, email: Email, role: RoleView, createdAt: Timestamp, updatedAt: Timestamp }), v.title('Agent'));

export type AgentView = v.InferOutput<typeof AgentView>;

const Code = v.pipe(v.string(), v.examples(['482915']));

export const AgentCodeView = v.pipe(
  v.object({
    id: RecordId,
    code: Code,
    agentName: v.pipe(v.string(), v.examples(['Dawit Bekele'])),
    agentPhone: v.string(),
    role: RoleView,
    maxUses: v.pipe(v.number(), v.integer()),
    useCount: v.pipe(v.number(), v.integer()),
    isUsed: v.boolean(),
    revoked: v.boolean(),
    revokedAt: v.nullable(Timestamp),
    expired: v.boolean(),
    usable: v.boolean(),
    expiresAt: Timestamp,
    createdById: RecordId,
    usedById: v.nullable(RecordId),
    createdAt: Timestamp,
    isActive: v.optional(v.pipe(v.boolean(), v.description('With LEGACY_CLIENT_FIELDS=1 only: `usable`.'))),
    uses: v.optional(v.pipe(v.number(), v.integer(), v.description('With LEGACY_CLIENT_FIELDS=1 only: `useCount`.'))),
  }),
  v.title('AgentCode'),
);

export type AgentCodeView = v.InferOutput<typeof AgentCodeView>;

export const CreatedAgentCodeView = v.object({
  id: RecordId,
  code: Code,
  agentName: v.string(),
  agentPhone: v.string(),
  maxUses: v.pipe(v.number(), v.integer()),
  expiresAt: Timestamp,
  isActive: v.optional(v.pipe(v.boolean(), v.description('With LEGACY_CLIENT_FIELDS=1 only: true.'))),
  uses: v.optional(v.pipe(v.number(), v.integer(), v.description('With LEGACY_CLIENT_FIELDS=1 only: 0.'))),
});

export type CreatedAgentCodeView = v.InferOutput<typeof CreatedAgentCodeView>;

export const AgentCodeCheckView = v.object({ valid: v.boolean(), agentName: v.nullable(v.string()), agentPhone: v.nullable(v.string()) });

export type AgentCodeCheckView = v.InferOutput<typeof AgentCodeCheckView>;
