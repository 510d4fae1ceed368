/** Profile names become keys in the config file and words in commands: keep them simple. */
export const PROFILE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
