import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';

export interface Dovecot {
  /** `imap://portal:secret@127.0.0.1:<port>/INBOX`, ready for MAIL_IN_URL. */
  url: string;
  /** Puts a raw message into a folder, as a mail server delivering it would. */
  append(raw: string | Buffer, folder?: string): Promise<void>;
  /** How many messages a folder holds (0 when it does not exist). */
  count(folder: string): Promise<number>;
  /** The Message-IDs (or subjects, when there is none) of a folder's messages. */
  subjects(folder: string): Promise<string[]>;
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** Debian's dovecot binary: on the PATH or in /usr/sbin (`.ci/run` installs dovecot-imapd). */
const dovecotBinary = () => (spawnSync('which', ['dovecot']).status === 0 ? 'dovecot' : '/usr/sbin/dovecot');

/**
 * A real Dovecot IMAP server for one test file: a throwaway configuration, password file and
 * maildirs in a temporary folder, plain IMAP on 127.0.0.1 at a free port, no system path
 * touched. Mail is stored as the current user, or, under root (which Dovecot refuses as a mail
 * user), as nobody.
 */
export async function startDovecot(): Promise<Dovecot> {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-dovecot-'));
  // Dovecot's own processes (its auth user) read the password file in it.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const user = 'portal';
  const pass = 'imap-secret';
  const isRoot = process.getuid?.() === 0;
  const uid = isRoot ? 65534 : process.getuid!();
  const gid = isRoot ? 65534 : process.getgid!();
  const home = path.join(dir, 'home');
  mkdirSync(path.join(dir, 'run'));
  mkdirSync(path.join(dir, 'state'));
  mkdirSync(home);
  if (isRoot) chownSync(home, uid, gid);
  writeFileSync(path.join(dir, 'passwd'), `${user}:{PLAIN}${pass}::::::\n`);
  const me = userInfo().username;
  const config = path.join(dir, 'dovecot.conf');
  writeFileSync(
    config,
    [
      `base_dir = ${dir}/run`,
      `state_dir = ${dir}/state`,
      `log_path = ${dir}/dovecot.log`,
      `instance_name = portal-test-${port}`,
      'protocols = imap',
      'listen = 127.0.0.1',
      'ssl = no',
      'disable_plaintext_auth = no',
      'auth_mechanisms = plain login',
      'first_valid_uid = 1',
      'first_valid_gid = 0',
      `mail_location = maildir:${home}/%u`,
      ...(isRoot
        ? []
        : [`default_internal_user = ${me}`, `default_login_user = ${me}`, `default_internal_group = ${me}`]),
      'passdb {',
      '  driver = passwd-file',
      `  args = scheme=PLAIN username_format=%u ${dir}/passwd`,
      '}',
      'userdb {',
      '  driver = static',
      `  args = uid=${uid} gid=${gid} home=${home}/%u`,
      '}',
      'service imap-login {',
      '  inet_listener imap {',
      '    address = 127.0.0.1',
      `    port = ${port}`,
      '  }',
      '  inet_listener imaps {',
      '    port = 0',
      '  }',
      '}',
      '',
    ].join('\n'),
  );
  // Dovecot forks into the background; its stdio is not kept open (a pipe would never close).
  execFileSync(dovecotBinary(), ['-c', config], { stdio: 'ignore' });

  const client = async () => {
    for (let attempt = 0; ; attempt++) {
      // A new client per attempt: one whose connection failed is not connected again.
      const imap = new ImapFlow({ host: '127.0.0.1', port, secure: false, auth: { user, pass }, logger: false });
      imap.on('error', () => undefined);
      try {
        await imap.connect();
        return imap;
      } catch (error) {
        if (attempt > 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  const withClient = async <T>(fn: (imap: ImapFlow) => Promise<T>): Promise<T> => {
    const imap = await client();
    try {
      return await fn(imap);
    } finally {
      await imap.logout().catch(() => undefined);
    }
  };
  const exists = async (imap: ImapFlow, folder: string) => (await imap.list()).some((m) => m.path === folder);
  // Started when a client can sign in.
  await withClient(async () => undefined);

  return {
    url: `imap://${user}:${pass}@127.0.0.1:${port}/INBOX`,
    append: (raw, folder = 'INBOX') =>
      withClient(async (imap) => {
        await imap.append(folder, raw);
      }),
    count: (folder) =>
      withClient(async (imap) => {
        if (!(await exists(imap, folder))) return 0;
        const status = await imap.status(folder, { messages: true });
        return (status && status.messages) || 0;
      }),
    subjects: (folder) =>
      withClient(async (imap) => {
        if (!(await exists(imap, folder))) return [];
        const lock = await imap.getMailboxLock(folder);
        try {
          const out: string[] = [];
          if ((imap.mailbox && imap.mailbox.exists) === 0) return out;
          for await (const m of imap.fetch('1:*', { envelope: true })) out.push(m.envelope?.subject ?? '');
          return out;
        } finally {
          lock.release();
        }
      }),
    async stop() {
      spawnSync('doveadm', ['-c', config, 'stop'], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
