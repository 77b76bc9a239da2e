import type { PrismaClient, UserRole } from '../prisma/generated/client/client.ts';
import type { SiteSettings } from './config.ts';

/** The signed-in caller; null for anonymous requests. */
export interface Viewer {
  id: number;
  login: string;
  role: UserRole;
}

export interface Context {
  prisma: PrismaClient;
  viewer: Viewer | null;
  settings: SiteSettings;
  /** Request-scoped clock: every "now" in one request is the same instant. */
  now: Date;
  /** Password sent with a read (unlocks password-protected records). */
  password?: string;
  /** `context=edit`: editors see protected content without the password (contract §3.2). */
  editContext?: boolean;
}

export function createContext(input: {
  prisma: PrismaClient;
  settings: SiteSettings;
  viewer?: Viewer | null;
  now?: Date;
  password?: string;
  editContext?: boolean;
}): Context {
  return {
    prisma: input.prisma,
    settings: input.settings,
    viewer: input.viewer ?? null,
    now: input.now ?? new Date(),
    password: input.password,
    editContext: input.editContext,
  };
}
