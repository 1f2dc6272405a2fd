// The shape of a Settings form action, shared by the Settings page and its accounting section
// (./settings.tsx registers them; ./settings-accounting.tsx adds its own through the same helper).
import type { AppContext } from '../../context';
import type { ActionSpec } from '../actions';
import type { NOTICES } from '../render';
import type { Dashboard } from '../session';

/** The panel a failed form belongs to (its errors are shown there). */
export type Section = 'profile' | 'business' | 'portal' | 'domains' | 'origins' | 'live' | 'vat' | 'accounting';

/** A settings action: the action spec, then a redirect with a notice (or `success` for another answer). */
export type SettingsSpec<T> = ActionSpec<T> & { success?: (ctx: AppContext, result: T) => void | Promise<void>; notice?: keyof typeof NOTICES };

/** Registers a settings form: on an API error the page is shown again with the message beside the field its param names. */
export type SettingsPost = <T>(path: string, section: Section, fields: readonly string[], spec: (d: Dashboard, ctx: AppContext) => SettingsSpec<T>) => void;
