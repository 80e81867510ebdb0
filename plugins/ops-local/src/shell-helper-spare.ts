/**
 * The spare shell of the long-lived helper (shell-helper-script.ts, whose script includes these subs).
 *
 * After a command took its shell (the spare, or one forked for it), the helper forks the next command's shell
 * ahead of it as soon as a command's exit is out, or after 50 ms with nothing to do (a long command), so that the
 * new bash starts up while keel and the model do their part: like any command's, but running SPARE_WRAPPER, which
 * waits for the command on fd 3, with the last request's shell and environment, the tag that request named for
 * the spare, and that request's folder, entered through the helper's own descriptor of it (keel's closes once
 * the command ends). Not at once: the fork and the wait for its exec then held up the exit of a quick command,
 * 8 ms of a turn whose model took 20 ms (29 against 37 ms).
 * A request whose shell, whole environment (its tag included: keel uses the one it named for the spare) and
 * folder match is written to the spare, whose S frame goes out at once: the fork and exec are off the turn's
 * path. The folder matches when the one keel checked (its /proc/<keel>/fd/N) has the device and inode of the
 * descriptor the spare enters, which the helper holds open so that no other folder can be given that inode
 * meanwhile: the very directory, however it was renamed or replaced on its path; and when its path is the one
 * it had when the spare started (bash takes $PWD from it).
 * Anything else, a command of 4 KB or more (bash reads fd 3 a byte at a time) or a spare that died (the write
 * fails), and the spare is killed and the command forked as always. The spare leads its own session with a tag
 * no command has, so it is in no command's tree and `<left>` does not count it; it exits when fd 3 closes
 * unwritten, so it ends with the helper.
 */

/**
 * What a spare shell runs (bash only): WRAPPER (spawn.ts) behind a wait for the command, NUL-terminated on fd 3.
 * The command then runs exactly as WRAPPER runs it: the text as `$1` of an `eval` whose `shift` leaves `$#` 0,
 * so `$0`, `$LINENO`, `$_` and the shell's own error messages are the same; `REPLY` (`read` without a name
 * keeps the text untouched) is unset and `SECONDS` restarted. A spare whose fd 3 closes unwritten exits.
 */
export const SPARE_WRAPPER =
  'exec 2>&1; read -r -d "" -u 3 || exit; exec 3<&-; set -- "$REPLY"; unset REPLY; SECONDS=0; eval "shift; $1"';

/**
 * The helper's subs for its spare; `start` calls `take_spare` and `drop_spare`, the main loop `make_spare` (after
 * any exit when there is no spare, and 50 ms into a command that took the last one).
 */
export const SPARE_SUBS = String.raw`
# A command and its NUL in one write no larger than PIPE_BUF, which a pipe takes whole without blocking.
my $SPARE_MAX = 4095;

sub take_spare {
  my ($id, $command, $tag, $key, $dir, $folder) = @_;
  my $s = $spare or return 0;
  return 0 unless $s->{tag} eq $tag && $s->{key} eq $key && length $command <= $SPARE_MAX;
  my $path = readlink($folder) // $folder; # keel's /proc/<keel>/fd/N, or a real path (tests)
  my @here = stat $dir;
  return 0 unless defined $path && $path eq $s->{path} && @here && $here[0] == $s->{dev} && $here[1] == $s->{ino};
  my $n = syswrite $s->{cmd}, "$command\0"; # EPIPE once it died
  return 0 unless defined $n && $n == 1 + length $command;
  undef $spare; # closes the command's pipe behind it
  begin($id, $s->{c});
  return 1;
}

sub make_spare {
  my $n = $next or return;
  my $path = readlink '/proc/self/fd/' . fileno $n->{dir};
  my ($dev, $ino) = stat $n->{dir};
  my ($cr, $cw);
  return unless defined $path && defined $ino && pipe($cr, $cw);
  my $c = fork_shell($n->{shell}, $n->{dir}, $n->{env}, $SPARE_WRAPPER, $cr);
  return unless ref $c;
  # It could not start (it exits 127 on its own): reaped as a spare that died, and the next command forks.
  if (!$c->{status} && length $c->{why}) { $dying{$c->{pid}} = 1; return }
  nonblocking($cw);
  # The descriptor it enters stays open with it, so no other folder can take that device and inode meanwhile.
  $spare = { c => $c, cmd => $cw, tag => $n->{tag}, key => $n->{key}, path => $path, dir => $n->{dir}, dev => $dev,
    ino => $ino };
}

sub drop_spare {
  return unless $spare;
  kill 'KILL', $spare->{c}{pid};
  $dying{$spare->{c}{pid}} = 1;
  undef $spare;
}
`;
