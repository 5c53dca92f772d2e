# Thin wrapper: everything happens in dev.sh (which also installs missing packages).
.PHONY: run test bench
run:
	./dev.sh run
test:
	./dev.sh test
bench:
	./dev.sh bench
