import test from 'ava';
import { missingTools, requireTools } from './host-tools.js';

test('a missing program fails the check at once, naming the program and the step that installs it', (t) => {
  const error = t.throws(() => requireTools(['/bin/sh', '/usr/bin/no-such-tool-here'], 'scripts/ensure-x.sh installs it'));
  t.regex(error?.message ?? '', /\/usr\/bin\/no-such-tool-here/);
  t.regex(error?.message ?? '', /scripts\/ensure-x\.sh/);
  t.notRegex(error?.message ?? '', /\/bin\/sh,/, 'only what is missing is named');
  t.deepEqual(missingTools(['/bin/sh']), []);
  t.notThrows(() => requireTools(['/bin/sh'], 'never'));
});
