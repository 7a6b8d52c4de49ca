import { SITE_NAME } from '../../../shared/site.js';
import { Button } from '../../components/ui/button.js';
import { AccountCopyButton } from './account-copy-button.js';

function download(codes: readonly string[], userName: string): void {
  const text = [
    `${SITE_NAME}: backup codes for ${userName}`,
    'Each code signs in once, in place of the code from your authenticator app.',
    '',
    ...codes,
    '',
  ].join('\n');
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `backup-codes-${userName}.txt`;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/**
 * The ten backup codes, shown this once (the server keeps only their hashes): copied or downloaded,
 * then put away with "I have saved them".
 */
export function AccountBackupCodes({
  codes,
  userName,
  onDone,
}: {
  codes: readonly string[];
  userName: string;
  onDone: () => void;
}) {
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        Two-factor sign-in is on. Keep these backup codes somewhere safe: each one signs you in once if you
        lose your phone. <strong>They are shown only this once.</strong>
      </p>
      <ul
        aria-label="Backup codes"
        className="grid max-w-md grid-cols-1 gap-2 rounded-md bg-slate-100 p-3 font-mono text-base text-slate-900 min-[420px]:grid-cols-2"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap items-center gap-2">
        <AccountCopyButton text={codes.join('\n')} label="Copy codes" />
        <Button variant="secondary" size="sm" onClick={() => download(codes, userName)}>
          Download (.txt)
        </Button>
      </div>
      <Button onClick={onDone}>I have saved them</Button>
    </div>
  );
}
