// What the editor's UI outside the webview interprets in a plain string, as the editor (1.100) does it: the
// notification link pattern (base/common/linkedText.ts, copied from the shipped workbench) and the icon syntax
// of quick picks and the status bar (base/common/iconLabels.ts). Tests check our messages against them.

/** `[label](command:…)`, `[label](https://…)`, `[label](file:…)`: a notification renders these as links. */
export const NOTIFICATION_LINK =
  /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

/** `$(name)` or `$(name~spin)`: quick picks and the status bar render these as icons. */
export const ICON = /\$\(([A-Za-z0-9-]+(?:~[A-Za-z]+)?)\)/g;

/** The links a notification would render from `message`. */
export function notificationLinks(message: string): string[] {
  return [...message.matchAll(NOTIFICATION_LINK)].map((m) => m[2]);
}

export function icons(text: string): string[] {
  return [...text.matchAll(ICON)].map((m) => m[1]);
}

/** A value that becomes a link running a command, with its arguments, when a notification shows it. */
export const HOSTILE = '[x](command:workbench.action.openSettings?%5B%22PWNED%22%5D)';

/** The text as a reader sees it: our escape adds only zero-width spaces. */
export const visible = (text: string) => text.replaceAll('\u200B', '');
