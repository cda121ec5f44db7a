// Small values of the workbench kept as whole JSON texts, one row each, in the workbench's database: every
// store's clock (`clocks`, ../clock/clocks.ts) and what the upgrade from 0.2.x did (`upgraded-from`,
// ../upgrade/). Each is read once at start and written whole when it changes.
import type { Database } from './database.js';

export interface SettingKeeping {
  /** For messages: the file and the row. */
  location: string;
  /** For messages: how to drop the whole value by hand (`delete the file`, or the SQL that deletes the row). */
  forget: string;
  read(): string | undefined;
  write(text: string): void;
}

export function settingsTable(db: Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
}

/** One row of the settings table, for a part that keeps its state as one text (Clocks' ClockKeeping). */
export function setting(db: Database, location: string, key: string): SettingKeeping {
  settingsTable(db);
  const get = db.prepare(`SELECT value FROM settings WHERE key = ?`).pluck();
  const put = db.prepare(`INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
  return {
    location: `${location} (settings row "${key}")`,
    // Never "delete the file": the database holds every store's world and webhooks beside this row.
    forget: `delete that row (sqlite3 '${location.replace(/'/g, "'\\''")}' "DELETE FROM settings WHERE key = '${key}'") with the workbench stopped`,
    read: () => get.get(key) as string | undefined,
    write: (text) => void put.run(key, text),
  };
}
