import { users } from '../db/schema.js';
import { publicImageUrl } from '../media/public-image-url.js';
import type { UserSummaryView } from './view.js';

/** What sign-up and sign-in return about the user. */
export function userSummary(user: UserSummaryView): UserSummaryView {
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}

/** What anyone may see of a user (the storefront's agent): never e-mail, role or secrets. */
export const publicProfileColumns = {
  id: users.id,
  name: users.name,
  phone: users.phone,
  profileImage: users.profileImage,
  social_1: users.social_1,
  social_2: users.social_2,
  social_3: users.social_3,
  social_4: users.social_4,
  social_5: users.social_5,
  social_6: users.social_6,
  social_7: users.social_7,
  social_8: users.social_8,
  website: users.website,
  customSocials: users.customSocials,
};

/**
 * The profile's columns (`GET /api/auth/me`). Selecting them by name keeps the password hash and
 * the reset fields out of every response built from it.
 */
export const profileColumns = {
  ...publicProfileColumns,
  email: users.email,
  role: users.role,
};

/** An agent in the administrators' list: the profile plus account dates. */
export const agentColumns = {
  ...profileColumns,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
};

/** A profile image as every answer shows it: an absolute URL that loads from any origin, or null when there is none. */
export function profileImageUrl(ref: string | null): string | null {
  return ref ? publicImageUrl(ref) : null;
}

/** A profile, or an agent of the administrators' list, as answered: the columns above with the image's URL. */
export function profilePresenter<T extends { profileImage: string | null }>(profile: T): T {
  return { ...profile, profileImage: profileImageUrl(profile.profileImage) };
}
