/**
 * The "block leaked passwords" setting without the online lookup: the real service asks a
 * breach database; the sandbox checks a short local list of the passwords most often found in
 * breaches, so a tester can see the refusal with a predictable input ("password", "123456").
 */
const LEAKED = new Set([
  '123456', '123456789', '12345678', '12345', '1234567', '1234567890', '111111', '000000', '123123', '654321',
  'password', 'password1', 'password123', 'passw0rd', 'qwerty', 'qwerty123', 'qwertyuiop', 'abc123', 'iloveyou',
  'admin', 'admin123', 'welcome', 'welcome1', 'letmein', 'monkey', 'dragon', 'football', 'baseball', 'sunshine',
  'princess', 'master', 'shadow', 'superman', 'trustno1', 'starwars', 'login', 'hello', 'freedom', 'whatever',
  'michael', 'charlie', 'donald', 'mustang', 'access', 'batman', 'zaq12wsx', '1q2w3e4r', 'asdfghjkl', '987654321',
]);

/** Whether `password` is on the local list of breached passwords (exact, case-sensitive). */
export function isLeakedPassword(password: string): boolean {
  return LEAKED.has(password);
}
