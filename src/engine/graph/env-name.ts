// The form of an environment variable name, as every graph field that names one takes it.
export const ENV_NAME_PATTERN = "^[A-Za-z_][A-Za-z0-9_]*$";
