# -*- Python -*-
# Runs memsched's GoogleTest binaries, one lit test per test case.

import os

import lit.formats

config.name = "MEMSCHED-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.memsched_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
