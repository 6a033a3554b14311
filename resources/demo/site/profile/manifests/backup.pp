# The class whose parameters the profile::backup::* keys set: automatic
# parameter lookup asks Hiera for "profile::backup::<parameter>".  The
# defaults live in this module's data (../data), not here.  (Only here to
# make the module look like one; Hiera Explorer does not read manifests.)
class profile::backup (
  String        $package,
  String        $target,
  String        $schedule,
  String        $compression,
  Integer       $retention_days,
  Array[String] $exclude,
  String        $encryption_passphrase,
) {
  package { $package: ensure => installed }
}
