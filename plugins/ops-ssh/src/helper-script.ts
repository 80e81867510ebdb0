/**
 * The remote helper: a small perl program (perl is in every Debian and most Linux bases) that the backend keeps
 * running on the remote host over one exec channel. It does what SFTP cannot do safely: confine a path to the
 * root where the files are. Each path's real place is worked out (symlinks followed by hand, a loop or a place
 * outside the root refused), then the folder is opened one name at a time from the root, each with O_NOFOLLOW
 * through the folder opened before (`/proc/self/fd/N/name`), so a folder swapped for a symlink meanwhile fails
 * the walk instead of leading out. The descriptors it hands back are reached by SFTP and by a command's `cd` as
 * `/proc/<helper>/fd/<N>`: the very folder or file checked, whatever was renamed since. It also kills process
 * trees (a forked child per kill, so other requests go on) and finds programs on PATH.
 *
 * Protocol: one JSON object per line each way; each request has an `id`, each answer the same `id` and either
 * `ok` (the result) or `err` ({ code, message } for an OS error, { refused } for a path it will not use).
 */
export const HELPER_SCRIPT = String.raw`
use strict; use warnings;
use Fcntl qw(O_RDONLY O_DIRECTORY O_NOFOLLOW O_NONBLOCK S_ISDIR S_ISREG S_ISLNK);
use POSIX qw(ENOENT ENOTDIR EISDIR EEXIST EACCES EPERM ELOOP ENOTEMPTY ENAMETOOLONG EROFS ENOSPC EINVAL EBUSY);
use Time::HiRes qw(lstat stat time sleep);
use JSON::PP;
use Cwd ();
$| = 1;
$SIG{CHLD} = 'IGNORE';
my $json = JSON::PP->new->utf8->canonical;
my %codes = (ENOENT, 'ENOENT', ENOTDIR, 'ENOTDIR', EISDIR, 'EISDIR', EEXIST, 'EEXIST', EACCES, 'EACCES',
  EPERM, 'EPERM', ELOOP, 'ELOOP', ENOTEMPTY, 'ENOTEMPTY', ENAMETOOLONG, 'ENAMETOOLONG', EROFS, 'EROFS',
  ENOSPC, 'ENOSPC', EINVAL, 'EINVAL', EBUSY, 'EBUSY');
my %held;

sub refuse { die { refused => $_[0] } }
sub sys_fail {
  my ($what, $path) = @_;
  my $n = $! + 0; my $text = "$!";
  die { code => ($codes{$n} // 'EIO'), message => "$text, $what '$path'" };
}
sub dir_of { my ($p) = @_; $p =~ s{/[^/]*$}{}; return $p eq '' ? '/' : $p }
sub base_of { my ($p) = @_; $p =~ s{^.*/}{}; return $p }
sub fd_path { return '/proc/self/fd/' . fileno($_[0]) . (defined $_[1] ? "/$_[1]" : '') }

sub real_of {
  my ($abs) = @_;
  my @todo = grep { length && $_ ne '.' } split m{/}, $abs;
  my @cur; my $hops = 0;
  while (@todo) {
    my $name = shift @todo;
    if ($name eq '.') { next }
    if ($name eq '..') { pop @cur; next }
    my $next = '/' . join('/', @cur, $name);
    if (-l $next) {
      refuse("it goes through a symlink loop (too many levels of symlinks at $next)") if ++$hops > 40;
      my $target = readlink $next;
      @cur = () if $target =~ m{^/};
      unshift @todo, grep { length } split m{/}, $target;
      next;
    }
    push @cur, $name;
  }
  return '/' . join('/', @cur);
}

# The root each request works under (its real path), set from the request: one helper serves every root.
our $root = '/';
sub root_of {
  my ($arg) = @_;
  $arg = Cwd::getcwd() . "/$arg" unless $arg =~ m{^/};
  return real_of($arg);
}

sub within { my ($r) = @_; return $r eq $root || index($r, $root eq '/' ? '/' : "$root/") == 0 }
sub outside { return "outside the remote root $root; use a path inside it" }

sub confined {
  my ($abs, $mode) = @_;
  my $real = ($mode eq 'entry' && $abs ne $root) ? real_of(dir_of($abs)) . '/' . base_of($abs) : real_of($abs);
  $real =~ s{^//}{/};
  refuse("it leads through a symlink to $real, " . outside()) unless within($real);
  return $real;
}

sub open_dir {
  my ($real, $create) = @_;
  sysopen(my $fh, $root, O_RDONLY | O_DIRECTORY) or sys_fail('open', $root);
  my $rel = $real eq $root ? '' : substr($real, length($root eq '/' ? '' : $root) + 1);
  for my $name (grep { length } split m{/}, $rel) {
    my $path = fd_path($fh, $name);
    my $next;
    if (!sysopen($next, $path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)) {
      if ($! == ENOENT && $create) {
        mkdir($path) or $! == EEXIST or sys_fail('mkdir', $real);
        sysopen($next, $path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW) or swapped($path, $real);
      } else { swapped($path, $real) }
    }
    $fh = $next;
  }
  my $now = readlink(fd_path($fh));
  refuse("it was changed while being opened and now leads to $now, " . outside()) unless defined $now && within($now);
  return $fh;
}

sub swapped {
  my ($path, $real) = @_;
  my $n = $! + 0;
  refuse('a folder on its path became a symlink after it was checked; refusing to follow it')
    if ($n == ENOTDIR || $n == ELOOP) && -l $path;
  $! = $n; sys_fail('open', $real);
}

sub kind_of {
  my ($mode) = @_;
  return S_ISLNK($mode) ? 'symlink' : S_ISDIR($mode) ? 'directory' : S_ISREG($mode) ? 'file' : 'other';
}

sub hold { my ($fh) = @_; $held{fileno $fh} = $fh; return fileno $fh }

sub op_root {
  $! = ENOTDIR, sys_fail('use the remote root', $root) unless -d $root;
  return $root;
}

sub op_check { return confined($_[0]{path}, $_[0]{mode} // 'follow') }

sub op_openfile {
  my $real = confined($_[0]{path}, 'follow');
  if ($real eq $root) { $! = EISDIR; sys_fail('read', $real) }
  my $dir = open_dir(dir_of($real), 0);
  my $fh;
  if (!sysopen($fh, fd_path($dir, base_of($real)), O_RDONLY | O_NOFOLLOW | O_NONBLOCK)) {
    refuse('it became a symlink after it was checked; refusing to follow it') if $! == ELOOP;
    sys_fail('open', $real);
  }
  my @st = stat($fh);
  if (S_ISDIR($st[2])) { $! = EISDIR; sys_fail('read', $real) }
  refuse('it is not a regular file (a pipe, socket or device); only files can be read') unless S_ISREG($st[2]);
  return { fd => hold($fh), size => $st[7] };
}

sub op_opendir {
  my $real = confined($_[0]{path}, 'follow');
  return { fd => hold(open_dir($real, $_[0]{create} ? 1 : 0)), real => $real };
}

sub op_writeprep {
  my $real = confined($_[0]{path}, 'follow');
  if ($real eq $root) { $! = EISDIR; sys_fail('open', $real) }
  my $dir = open_dir(dir_of($real), 1);
  my $name = base_of($real);
  my @st = lstat(fd_path($dir, $name));
  my $mode;
  if (@st) {
    if (S_ISDIR($st[2])) { $! = EISDIR; sys_fail('open', $real) }
    refuse('it became a symlink to ' . readlink(fd_path($dir, $name)) . ' after it was checked; nothing was written')
      if S_ISLNK($st[2]);
    $mode = $st[2] & 07777 if S_ISREG($st[2]);
  }
  return { fd => hold($dir), name => $name, mode => $mode };
}

sub op_close { delete $held{$_[0]{fd}}; return 1 }

sub op_stat {
  my $real = confined($_[0]{path}, 'entry');
  my @st;
  if ($real eq $root) { @st = lstat($root) }
  else {
    my $dir = eval { open_dir(dir_of($real), 0) };
    if (!$dir) {
      my $e = $@;
      return undef if ref $e && $e->{code} && ($e->{code} eq 'ENOENT' || $e->{code} eq 'ENOTDIR');
      die $e;
    }
    @st = lstat(fd_path($dir, base_of($real)));
  }
  return undef unless @st;
  return { kind => kind_of($st[2]), size => $st[7] + 0, mtimeMs => int($st[9] * 1000) };
}

sub op_list {
  my $real = confined($_[0]{path}, 'follow');
  my $dir = open_dir($real, 0);
  opendir(my $dh, fd_path($dir)) or sys_fail('scandir', $real);
  my @out;
  for my $name (readdir $dh) {
    next if $name eq '.' || $name eq '..';
    my @st = lstat(fd_path($dir, $name));
    next unless @st;
    my $shown = $name; utf8::decode($shown);
    push @out, { name => $shown, kind => kind_of($st[2]) };
  }
  return \@out;
}

sub op_mkdir { open_dir(confined($_[0]{path}, 'follow'), 1); return 1 }

sub remove_in {
  my ($dir, $name) = @_;
  my $path = fd_path($dir, $name);
  my @st = lstat($path) or sys_fail('rm', $name);
  if (S_ISDIR($st[2])) {
    sysopen(my $sub, $path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW) or swapped($path, $name);
    opendir(my $dh, fd_path($sub)) or sys_fail('scandir', $name);
    for my $entry (readdir $dh) { remove_in($sub, $entry) unless $entry eq '.' || $entry eq '..' }
    rmdir($path) or sys_fail('rmdir', $name);
  } else { unlink($path) or sys_fail('unlink', $name) }
}

sub op_remove {
  my $real = confined($_[0]{path}, 'entry');
  refuse('it is a root folder of the workspace; remove what is inside it instead') if $real eq $root;
  remove_in(open_dir(dir_of($real), 0), base_of($real));
  return 1;
}

sub op_which {
  for my $dir (split /:/, $ENV{PATH} // '') {
    my $path = "$dir/$_[0]{name}";
    return $path if length $dir && -f $path && -x _;
  }
  return undef;
}

sub proc_stat {
  my ($pid) = @_;
  open(my $fh, '<', "/proc/$pid/stat") or return;
  my $line = <$fh>; close $fh;
  return unless defined $line && $line =~ /^.*\)\s+(\S)\s+\d+\s+(\d+)\s+(\d+)(?:\s+\S+){15}\s+(\d+)/;
  return ($1, $2, $3, $4);
}

sub members {
  my ($pid, $tag, $seen) = @_;
  opendir(my $dh, '/proc') or return;
  for my $p (grep { /^\d+$/ } readdir $dh) {
    next if $p == $$;
    my ($state, $pgid, $sid, $start) = proc_stat($p);
    next unless defined $state;
    my $ours = $pgid == $pid || $sid == $pid;
    if (!$ours && open(my $env, '<', "/proc/$p/environ")) {
      local $/; my $text = <$env> // ''; close $env;
      $ours = index("\0$text", "\0KEEL_PROCESS_TAG=$tag\0") >= 0;
    }
    $seen->{$p} = $start if $ours && !exists $seen->{$p};
  }
  return grep {
    my ($state, undef, undef, $start) = proc_stat($_);
    defined $state && $state ne 'Z' && $state ne 'X' && $start == $seen->{$_};
  } keys %$seen;
}

sub op_kill {
  my ($pid, $tag, $grace) = @{$_[0]}{qw(pid tag grace)};
  my (%seen, %termed);
  my $deadline = time + $grace / 1000;
  for (;;) {
    my @left = members($pid, $tag, \%seen);
    last unless @left;
    if (time >= $deadline) { kill 'KILL', @left }
    else { kill 'TERM', grep { !$termed{$_}++ } @left }
    sleep 0.02;
  }
  return 1;
}

my %ops = (root => \&op_root, check => \&op_check, openfile => \&op_openfile, opendir => \&op_opendir,
  writeprep => \&op_writeprep,
  close => \&op_close, stat => \&op_stat, list => \&op_list, mkdir => \&op_mkdir, remove => \&op_remove,
  which => \&op_which, kill => \&op_kill);

# Paths on disk are bytes; JSON carries characters. Only text fields are decoded, so numbers stay numbers.
sub texts {
  my ($v) = @_;
  if (ref $v eq 'HASH') { for my $k (qw(real name message refused)) { utf8::decode($v->{$k}) if defined $v->{$k} } }
  elsif (defined $v && !ref $v) { utf8::decode($v) }
  return $v;
}

sub answer {
  my ($request) = @_;
  my $result = eval {
    utf8::encode($request->{path}) if defined $request->{path};
    utf8::encode($request->{name}) if defined $request->{name};
    utf8::encode($request->{root}) if defined $request->{root};
    local $root = defined $request->{root} ? root_of($request->{root}) : '/';
    +{ ok => texts($ops{$request->{op}}->($request)) };
  };
  $result = { err => texts(ref $@ ? $@ : { code => 'EIO', message => "$@" }) } unless $result;
  $result->{id} = $request->{id};
  syswrite(STDOUT, $json->encode($result) . "\n");
}

syswrite(STDOUT, $json->encode({ ready => { pid => $$ } }) . "\n");
while (my $line = <STDIN>) {
  my $request = $json->decode($line);
  if ($request->{op} eq 'kill') {
    my $child = fork;
    if (defined $child && $child == 0) { answer($request); POSIX::_exit(0) }
    next if defined $child;
  }
  answer($request);
}
`;
