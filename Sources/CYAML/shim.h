// libyaml (Debian: libyaml-dev; Homebrew: libyaml), the YAML 1.1 parser configuration files are read with.
#include <yaml.h>
