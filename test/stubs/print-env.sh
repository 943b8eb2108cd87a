#!/bin/sh
# Prints the environment it got, one NAME=value a line, sorted.
env | sort
