// Seeds a fresh Parse Server over REST with the master key: users, an admin role, class Widget with permissions, two widgets.

/** Where and how the seed talks to the server. */
export interface ParseSeedTarget {
  /** `http://127.0.0.1:<port>/parse` */
  url: string;
  appId: string;
  masterKey: string;
  users: { full: { username: string; password: string }; limited: { username: string; password: string } };
}

/**
 * What a Parse app's owner sets up in the dashboard, done over REST: users `admin` (in role
 * `admin`) and `reader`; class `Widget` (`name` String and `price` Number, both required) that
 * logged-in users may read and only role `admin` may write, with no new fields from clients;
 * two widgets.
 */
export async function seedParse(target: ParseSeedTarget): Promise<void> {
  const send = async (path: string, body: unknown) => {
    const res = await fetch(`${target.url}${path}`, {
      method: 'POST',
      headers: {
        'x-parse-application-id': target.appId,
        'x-parse-master-key': target.masterKey,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    if (res.status !== 200 && res.status !== 201)
      throw new Error(`seeding: POST ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as { objectId?: string };
  };
  const admin = await send('/users', target.users.full);
  await send('/users', target.users.limited);
  await send('/roles', {
    name: 'admin',
    ACL: { '*': { read: true } },
    users: {
      __op: 'AddRelation',
      objects: [{ __type: 'Pointer', className: '_User', objectId: admin.objectId }],
    },
  });
  await send('/schemas/Widget', {
    className: 'Widget',
    fields: { name: { type: 'String', required: true }, price: { type: 'Number', required: true } },
    classLevelPermissions: {
      find: { requiresAuthentication: true },
      get: { requiresAuthentication: true },
      count: { requiresAuthentication: true },
      create: { 'role:admin': true },
      update: { 'role:admin': true },
      delete: { 'role:admin': true },
      addField: {},
      protectedFields: {},
    },
  });
  await send('/classes/Widget', { name: 'seed-one', price: 1.5 });
  await send('/classes/Widget', { name: 'seed-two', price: 2 });
}
