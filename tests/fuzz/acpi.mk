FUZZ_TARGETS += acpi
fuzz_acpi_SRCS := tests/fuzz/fuzz_acpi.c arch/x86_64/acpi_tables.c lib/string.c
