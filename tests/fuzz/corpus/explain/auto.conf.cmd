ifneq "$(ARCH)" "x86"
$(autoconfig): FORCE
endif
ifneq "$(KERNELVERSION)" "6.12.118"
$(autoconfig): FORCE
endif
ifneq "$(CC)" "gcc"
$(autoconfig): FORCE
endif
ifneq "$(LD)" "ld"
$(autoconfig): FORCE
endif
ifneq "$(srctree)" "/var/tmp/bp-dev/linux-source-6.12"
$(autoconfig): FORCE
endif
ifneq "$(RUSTC)" "rustc"
$(autoconfig): FORCE
endif
ifneq "$(CC_VERSION_TEXT)" "gcc (Debian 12.2.0-14+deb12u1) 12.2.0"
$(autoconfig): FORCE
endif
ifneq "$(NM)" "nm"
$(autoconfig): FORCE
endif
ifneq "$(OBJCOPY)" "objcopy"
$(autoconfig): FORCE
endif
ifneq "$(PAHOLE)" "pahole"
$(autoconfig): FORCE
endif
ifneq "$(RUSTC_VERSION_TEXT)" "rustc 1.95.0 (59807616e 2026-04-14)"
$(autoconfig): FORCE
endif
ifneq "$(BINDGEN)" "bindgen"
$(autoconfig): FORCE
endif
ifneq "$(SRCARCH)" "x86"
$(autoconfig): FORCE
endif
ifneq "$(AR)" "ar"
$(autoconfig): FORCE
endif
ifneq "$(PYTHON3)" "python3"
$(autoconfig): FORCE
endif
