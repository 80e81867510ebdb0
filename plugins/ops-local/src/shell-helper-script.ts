/**
 * The source of the long-lived shell helper (shell-host.ts runs it as `perl -e`). Perl because it is on every
 * Debian system (perl-base is Essential) and on macOS, starts in a few milliseconds, forks cheaply from its
 * few megabytes, and sees a child's raw wait status, so `exit 137` and a death by SIGKILL stay apart.
 *
 * Protocol. Requests on stdin: a line `R <id> <bytes>` and then <bytes> of NUL-terminated fields: shell, folder,
 * command, the command's tag as `KEEL_PROCESS_TAG=<tag>`, the tag of the spare to make for the next command the
 * same way (empty: make none), then `NAME=value` per variable. Answers on stdout, frames of one type byte, the
 * id and the payload's length (both 32-bit big-endian), then the payload:
 *   H  the helper is ready (id 0)            S  started: "<pid> <start time in ticks>"
 *   F  the shell could not start: why        D  output
 *   E  end of output (the pipe closed)       X  the shell exited: "<raw wait status> <left>"
 *
 * The shell is forked straight from the helper: it starts a session of its own (so it leads its process group,
 * as a detached spawn does), changes into its folder and execs with stdin on /dev/null and stdout and stderr
 * on one pipe; a failure before the exec is told on a status pipe that closes on exec. The helper holds S and
 * the frames after it until the shell's X, 5 ms with nothing happening, its seventh wake-up or 64 KB, so a
 * quick command costs keel one wake-up instead of three or four (S, D, E, X). It reaps on SIGCHLD (the handler
 * only interrupts `select`; a signal that lands just before `select` starts waiting is covered by polling each
 * millisecond while a shell's output has closed and its exit is not seen yet, and by a 50 ms timeout while
 * shells run), and drains a shell's output before its X, so frames arrive S, D..., E, X; frames made in one
 * pass go out in one write. When stdin closes (keel ended or
 * closed the backend), every running shell's process group is killed, and the helper exits once it has
 * reported their exits.
 *
 * The helper makes itself a child subreaper (Linux's prctl PR_SET_CHILD_SUBREAPER, through `syscall`, on x86_64
 * and aarch64), so a process a command leaves behind, however it detached (`&`, `setsid`, a double fork), is
 * reparented to the helper once its parent dies, never to init. Once the shell is reaped, every process of its
 * tree still alive is therefore a descendant of some child of the helper that is not a running shell: with no
 * such child, nothing of the command is left. `<left>` in X is 0 only then, and only when the subreaper is known
 * to be set; 1 means "maybe" (something is left, another command's orphan is, or the helper cannot tell), and
 * keel then looks through /proc as it does after a spawn. The helper reaps the orphans it inherits as they end.
 *
 * The helper keeps a spare shell for the next command: see shell-helper-spare.ts.
 */
import { SPARE_SUBS } from "./shell-helper-spare.ts";

export const SHELL_HELPER_SCRIPT = String.raw`
use strict; use warnings; use POSIX (); use Fcntl qw(F_GETFL F_SETFL O_NONBLOCK O_RDONLY O_DIRECTORY);
$0 = 'keel-shell-helper';
$SIG{PIPE} = 'IGNORE';
$SIG{CHLD} = sub {};
my ($WRAPPER, $SPARE_WRAPPER, $EXEC_WAIT, $IDLE_SPARE) = @ARGV;
my %PRCTL = (x86_64 => 157, aarch64 => 167);
my $REAPER = subreaper();
binmode STDIN; binmode STDOUT;
my (%cmds, %by_pid, %held, $holding, $polls);
my ($in, $pending, $closing) = ('', '', 0);
# What every shell's stdin becomes; the variables besides the tag that %ENV holds now (environment()).
open(my $NULL, '<', '/dev/null') or die "cannot open /dev/null: $!";
my $env_base = "\0";
# The spare shell; what the next spare is made from (the last request); spares killed and not reaped yet.
my ($spare, $next, %dying, $want_spare, $ended, $idle);

sub frame {
  my ($type, $id, $data) = @_;
  $data = '' unless defined $data;
  $ended = 1 if $type eq 'X';
  my $bytes = pack('a1 N N', $type, $id, length $data) . $data;
  if ($type eq 'S' || ($type ne 'X' && exists $held{$id} && length $held{$id} < 65536)) {
    $held{$id} .= $bytes;
    return;
  }
  my $start = delete $held{$id};
  $pending .= $start if defined $start;
  $pending .= $bytes;
  $holding = 0 unless %held;
}

sub unstarted { my ($id, $why) = @_; frame('F', $id, $why); frame('E', $id); frame('X', $id, 127 << 8) }

sub flush {
  while (length $pending) {
    my $n = syswrite(STDOUT, $pending);
    if (!defined $n) {
      next if $!{EINTR};
      if ($!{EAGAIN}) { my $w = ''; vec($w, 1, 1) = 1; select(undef, $w, undef, undef); next }
      POSIX::_exit(0);
    }
    substr($pending, 0, $n) = '';
  }
}

sub nonblocking { my $fh = shift; fcntl($fh, F_SETFL, fcntl($fh, F_GETFL, 0) | O_NONBLOCK) }

# The environment a shell is forked with, '@$env' (the tag last), made the helper's own before the fork: each
# page a child writes before its exec is a copy, and rebuilding %ENV there cost a few milliseconds of copies
# on a machine with slow page faults; here it is rebuilt only when a variable other than the tag changed.
sub environment {
  my @vars = @{$_[0]};
  my ($name, $value) = split /=/, pop @vars, 2;
  my $base = join "\0", @vars;
  if ($base ne $env_base) { %ENV = map { split /=/, $_, 2 } @vars; $env_base = $base }
  $ENV{$name} = $value;
}

# Forks a shell running '$script' with '@args' in a session of its own, in '$dir' (a path or an open folder),
# stdin on /dev/null, stdout and stderr on a new pipe, a failure before the exec told on a status pipe; '$cmd',
# for a spare: the pipe its command will come through, as fd 3. Returns the shell, or why it could not fork.
sub fork_shell {
  my ($shell, $dir, $env, $script, $cmd, @args) = @_;
  my ($or, $ow, $sr, $sw);
  return "pipe: $!" unless pipe($or, $ow) && pipe($sr, $sw);
  (my $name = $shell) =~ s{.*/}{};
  environment($env);
  my $pid = fork();
  return "fork: $!" unless defined $pid;
  if ($pid == 0) {
    $SIG{$_} = 'DEFAULT' for qw(PIPE CHLD);
    POSIX::setsid();
    unless (chdir $dir) { syswrite $sw, "cannot enter the working folder: $!"; POSIX::_exit(127) }
    POSIX::dup2(fileno $NULL, 0); POSIX::dup2(fileno $ow, 1); POSIX::dup2(fileno $ow, 2);
    if ($cmd) {
      # Descriptors above 2 are close-on-exec; a dup is not. Fd 3 may be the status pipe: keep that elsewhere.
      my $fd = POSIX::dup(fileno $cmd);
      if (fileno $sw == 3) { open(my $copy, '>&', $sw); $sw = $copy }
      POSIX::dup2($fd, 3) unless $fd == 3;
    }
    { no warnings 'exec'; exec { $shell } $name, '-c', $script, $name, @args; }
    syswrite $sw, "cannot run $shell: $!"; POSIX::_exit(127);
  }
  close $ow; close $sw;
  nonblocking($or);
  my $c = { out => $or, pid => $pid, why => '' };
  exec_wait($c, $sr);
  if (open(my $st, '<', "/proc/$pid/stat")) {
    my $s = <$st>;
    $c->{since} = (split / /, substr($s, rindex($s, ')') + 2))[19];
  }
  return $c;
}

# Waits for a child's exec, when its status pipe closes, and reads why it failed if it did; after $EXEC_WAIT
# seconds it goes on and the main loop reads the pipe. While the child is still a copy of the helper, each page
# either of them writes is a copy-on-write fault, and one that lands while both run on two CPUs also flushes the
# other's TLB: letting the child reach its exec alone cost a tool turn ~10% less CPU on a VM where faults are
# slow. A child stuck before its exec (a hung mount) holds the helper only that long.
sub exec_wait {
  my ($c, $sr) = @_;
  my $rin = '';
  vec($rin, fileno $sr, 1) = 1;
  while (1) {
    my $ready = select(my $rout = $rin, undef, undef, $EXEC_WAIT);
    next if $ready < 0 && $!{EINTR}; # a SIGCHLD
    last if $ready <= 0;
    my $n = sysread($sr, my $buf, 4096);
    next if !defined $n && $!{EINTR};
    if ($n) { $c->{why} .= $buf; next }
    close $sr;
    return;
  }
  nonblocking($sr);
  $c->{status} = $sr;
}

sub begin {
  my ($id, $c) = @_;
  frame('S', $id, "$c->{pid} " . ($c->{since} // 0));
  frame('F', $id, $c->{why}) if !$c->{status} && length $c->{why}; # else status() tells it when the pipe closes
  $cmds{$id} = $c;
  $by_pid{$c->{pid}} = $id;
}

# Runs a request: in the spare when it fits, else in a shell forked for it; the next spare is made from it.
sub start {
  my ($id, $shell, $folder, $command, $tag, $spare_tag, @env) = @_;
  my $key = join "\0", $shell, @env;
  my $dir;
  my $opened = sysopen($dir, $folder, O_RDONLY | O_DIRECTORY);
  unless ($opened && take_spare($id, $command, $tag, $key, $dir, $folder)) {
    drop_spare();
    my $c = fork_shell($shell, $folder, [@env, $tag], $WRAPPER, undef, $command);
    ref $c ? begin($id, $c) : unstarted($id, $c);
  }
  $next = $opened && length $spare_tag ? { shell => $shell, env => [@env, $spare_tag], key => $key, tag => $spare_tag,
    dir => $dir } : undef;
  $want_spare = 1;
}

${SPARE_SUBS}
sub drain {
  my ($id) = @_;
  my $c = $cmds{$id};
  while ($c->{out}) {
    my $n = sysread($c->{out}, my $buf, 65536);
    if (!defined $n) { last if $!{EAGAIN}; next if $!{EINTR}; $n = 0 }
    if (!$n) { close $c->{out}; delete $c->{out}; frame('E', $id); last }
    frame('D', $id, $buf);
  }
}

sub status {
  my ($id) = @_;
  my $c = $cmds{$id};
  my $n = sysread($c->{status}, my $buf, 4096);
  return if !defined $n && ($!{EAGAIN} || $!{EINTR});
  if ($n) { $c->{why} .= $buf; return }
  close $c->{status}; delete $c->{status};
  frame('F', $id, $c->{why}) if length $c->{why};
}

# True once this process is a child subreaper, read back so that a wrong syscall number cannot pass for it.
sub subreaper {
  my $nr = $^O eq 'linux' ? $PRCTL{(POSIX::uname())[4]} : undef;
  return 0 unless defined $nr && syscall($nr, 36, 1) == 0;
  my $on = pack('i', 0);
  return syscall($nr, 37, $on) == 0 && unpack('i', $on) == 1;
}

sub reap {
  my ($pid, @exited);
  while (($pid = waitpid(-1, POSIX::WNOHANG())) > 0) {
    delete $dying{$pid};
    undef $spare if $spare && $spare->{c}{pid} == $pid; # it died unused
    my $id = delete $by_pid{$pid};
    push @exited, [$id, $?] if defined $id; # else an orphan a command left, now gone
  }
  return unless @exited;
  my $left = leftovers($pid < 0 && $!{ECHILD});
  for (@exited) {
    my ($id, $status) = @$_;
    status($id) while $cmds{$id}{status};
    drain($id);
    $cmds{$id}{done} = 1;
    frame('X', $id, "$status $left");
  }
}

# 1 unless no process of the shells just reaped can be alive: every orphan is the helper's child (see above).
sub leftovers {
  my ($childless) = @_;
  return 1 unless $REAPER;
  return 0 if $childless;
  open(my $fh, '<', "/proc/$$/task/$$/children") or return 1;
  my $children = <$fh>;
  my $idle = $spare ? $spare->{c}{pid} : 0;
  return (grep { !exists $by_pid{$_} && !exists $dying{$_} && $_ != $idle } split ' ', $children // '') ? 1 : 0;
}

sub request {
  while ($in =~ /^R (\d+) (\d+)\n/ && length($in) >= $+[0] + $2) {
    my ($id, $bytes, $head) = ($1, $2, $+[0]);
    my @fields = split /\0/, substr($in, $head, $bytes), -1;
    pop @fields;
    substr($in, 0, $head + $bytes) = '';
    start($id, @fields);
  }
}

frame('H', 0);
while (1) {
  reap();
  for my $id (keys %cmds) { delete $cmds{$id} if $cmds{$id}{done} && !$cmds{$id}{out} }
  flush();
  # The next command's shell is made once a command's exit is out, or after 50 ms with nothing to do: not while a
  # quick command runs, whose exit the fork and the wait for its exec would hold up.
  if (($ended || ($want_spare && $idle)) && !$closing) { make_spare() unless $spare; $want_spare = 0 }
  $idle = $ended = 0;
  POSIX::_exit(0) if $closing && !%by_pid && !%dying; # reaped, so no zombie is left to init
  my $rin = '';
  vec($rin, 0, 1) = 1 unless $closing;
  for my $c (values %cmds) {
    vec($rin, fileno $c->{status}, 1) = 1 if $c->{status};
    vec($rin, fileno $c->{out}, 1) = 1 if $c->{out};
  }
  # A shell's output closes as it exits, a moment before it can be reaped; a SIGCHLD that lands between the
  # reap and this select only ends the wait at its timeout, so the helper polls briefly in that moment.
  my $exiting = grep { !$_->{out} && !$_->{done} } values %cmds;
  $polls = 0 unless $exiting;
  my $wait = $exiting && $polls++ < 20 ? 0.001 : %held ? 0.005 : %by_pid || %dying ? 0.05 : undef;
  my $ready = select(my $rout = $rin, undef, undef, $wait);
  $idle = 1 if $IDLE_SPARE && $ready == 0 && defined $wait && $wait >= 0.05;
  if (%held && (($ready == 0 && !$exiting) || ++$holding > 6)) {
    $pending .= $_ for values %held;
    %held = ();
    $holding = 0;
  }
  next if $ready <= 0;
  for my $id (keys %cmds) {
    my $c = $cmds{$id};
    status($id) if $c->{status} && vec($rout, fileno $c->{status}, 1);
    if ($c->{out} && vec($rout, fileno $c->{out}, 1)) {
      my $n = sysread($c->{out}, my $buf, 65536);
      if (defined $n && $n == 0) { close $c->{out}; delete $c->{out}; frame('E', $id) }
      elsif ($n) { frame('D', $id, $buf) }
    }
  }
  if (!$closing && vec($rout, 0, 1)) {
    my $n = sysread(STDIN, my $buf, 65536);
    if (defined $n && $n == 0) { $closing = 1; kill 'KILL', -$_ for keys %by_pid; drop_spare() }
    $in .= $buf if $n;
    request();
  }
}
`;
