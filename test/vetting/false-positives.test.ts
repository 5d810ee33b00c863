import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { vetText } from '../../server/src/vetting/index';

// Ordinary code and configuration that talks *about* secrets without containing one.
const ORDINARY_LINES = [
  // Java: reading, passing and checking secrets held elsewhere
  'password = request.getPassword();',
  'this.password = password;',
  'String password = System.getenv("DB_PASSWORD");',
  'String apiKey = props.getProperty("api.key");',
  'String token = jwtService.generateToken(user);',
  'if (password == null || password.isBlank()) {',
  'if (!passwordEncoder.matches(rawPassword, user.getPassword())) {',
  'return password;',
  'private final PasswordEncoder passwordEncoder;',
  'private String resetToken;',
  'private final TokenRepository tokenRepository;',
  'Map<String, String> secrets = new HashMap<>();',
  'for (Token token : tokens) {',
  'map.put("password", password);',
  'props.setProperty("password", "");',
  'String token = null;',
  'char[] password = new char[0];',
  'keyStore.load(in, "changeit".toCharArray());',
  'cfg.setPassword(secretsManager.lookup("db"));',
  'builder.apiKey(config.apiKey());',
  'KeyPair keyPair = generator.generateKeyPair();',
  'String key = entry.getKey();',
  'for (Map.Entry<String, Object> e : map.entrySet()) {',
  'Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");',
  'assertThat(user.getPassword()).isNotEqualTo(rawPassword);',
  'String hash = passwordEncoder.encode(password);',
  'x = cond ? password : fallback;',
  'if (authHeader != null && authHeader.startsWith("Bearer ")) {',
  'token = token.replace("Bearer ", "");',
  'http.authorizeHttpRequests(auth -> auth.requestMatchers("/api/**").permitAll());',
  'String[] PUBLIC_PATHS = {"/auth/login", "/auth/register"};',
  'headers.set("X-Auth-Token", sessionToken);',
  'private final Map<String, String> passwordResetTokens = new ConcurrentHashMap<>();',
  'return Jwts.builder().setSubject(user).signWith(key).compact();',
  'byte[] key = scrypt("password", "salt", 16384, 8, 1, 32);',
  'String secret = prefix + suffix;',
  'private String passwordConfirm;',
  // Java: names of secrets, not secrets
  'String secretKeyField = "secretKey";',
  'private static final String PASSWORD_PARAM = "password";',
  'public static final String SECRET = "secret";',
  'private static final String ACCESS_TOKEN = "access_token";',
  'private static final String API_KEY_HEADER = "X-API-Key";',
  'private static final String TOKEN_PREFIX = "Bearer ";',
  'private static final String AUTH_HEADER = "Authorization";',
  'private static final String PASSWORD_REGEX = "^(?=.*[0-9])(?=.*[a-z]).{8,}$";',
  'private static final int PASSWORD_MIN_LENGTH = 12;',
  'private static final Duration TOKEN_TTL = Duration.ofMinutes(15);',
  'private static final String SECRET_NAME = "prod/db-credentials";',
  '@JsonProperty("access_token") private String accessToken;',
  '@Column(name = "password_hash", nullable = false)',
  '@Value("${app.jwt.secret}") private String jwtSecret;',
  'throw new BadCredentialsException("Invalid password");',
  'log.info("Token refreshed for user {}", userId);',
  'String sql = "UPDATE users SET password = ? WHERE id = ?";',
  'header("Authorization", "Bearer " + token);',
  'case "password":',
  'PASSWORD("password"),',
  'String url = "jdbc:postgresql://localhost:5432/shop";',
  'String url = "http://" + host + ":" + port + "/api";',
  'URI base = URI.create("https://api.example.com:8443/v1/");',
  'String git = "git@github.com:acme/shop.git";',
  'String email = "mailto:ops@example.com";',
  '<input type="password" name="password" placeholder="Password">',
  // Test data: hashes and ids not assigned to secret-named keys
  'String expectedHash = "5f4dcc3b5aa765d61d8327deb882cf99";',
  'assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", sha256(""));',
  'UUID id = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");',
  'String commit = "9fceb02d0ae598e95dc970b74767f19372d61af8";',
  'String etag = "W/\\"33a64df551425fcc55e4d42a148795d9f25f89d4\\"";',
  'byte[] png = Base64.getDecoder().decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ");',
  'String cacheKey = "orders:" + customerId;',
  'String idempotencyKey = UUID.randomUUID().toString();',
  // Placeholders and trivial defaults (decision: left visible)
  'spring.datasource.password=${DB_PASSWORD}',
  'spring.datasource.password=',
  'jwt.secret=${JWT_SECRET}',
  '  secret: ${JWT_SECRET:change-me-in-production}',
  'app.api-key=changeme',
  'password: ${POSTGRES_PASSWORD}',
  'token: ${{ secrets.GITHUB_TOKEN }}',
  'password: "<your-password>"',
  'api_key: YOUR_API_KEY_HERE',
  'secret: xxxxxxxx',
  'password: "********"',
  '<password>${db.password}</password>',
  '<property name="password" value="${jdbc.password}"/>',
  '<password>@db.password@</password>',
  'export API_TOKEN=$API_TOKEN',
  'DB_PASSWORD=',
  '"password": "",',
  '"token": null,',
  '"apiKey": "YOUR_API_KEY",',
  // Config that describes secrets
  'spring.security.oauth2.client.provider.acme.token-uri=https://auth.example.com/oauth/token',
  'jwt.token-validity-in-seconds=86400',
  'server.ssl.key-store=classpath:keystore.p12',
  'server.ssl.key-store-type=PKCS12',
  'server.ssl.key-alias=tomcat',
  'security.password.min-length=12',
  'password-policy: strict',
  'key: value',
  'cache.key=user-sessions',
  'secretName: db-credentials',
  'secretKeyRef:',
  'kind: Secret',
  'tokenizer: whitespace',
  'keyboard-layout: us',
  'auth: true',
  '<secretName>orders-db</secretName>',
  '<passwordEncoder>bcrypt</passwordEncoder>',
  '"passwordMinLength": 12,',
  '"tokenType": "Bearer",',
  '// The password is hashed with bcrypt before it is stored.',
  '// password: must be at least 12 characters',
  '/* Tokens expire after 15 minutes; see TokenService. */',
  ' * @param password the raw password to check',
  ' * @return the API key header name',
  '// Authorization: Bearer <token>',
];

describe('vetting: ordinary code is left unchanged', () => {
  for (const line of ORDINARY_LINES) {
    it(line, () => {
      const r = vetText(line);
      assert.equal(r.text, line);
      assert.deepEqual(r.secrets, []);
      assert.deepEqual(r.flags, []);
    });
  }

  it('leaves a realistic Java class untouched', () => {
    const source = `package com.acme.shop.auth;

import java.time.Duration;

/** Issues and checks session tokens. Passwords are never logged. */
public final class SessionService {
  private static final String TOKEN_HEADER = "X-Session-Token";
  private static final Duration TOKEN_TTL = Duration.ofHours(8);
  private final PasswordEncoder passwordEncoder;
  private final TokenStore tokenStore;

  public SessionService(PasswordEncoder passwordEncoder, TokenStore tokenStore) {
    this.passwordEncoder = passwordEncoder;
    this.tokenStore = tokenStore;
  }

  public String login(String username, String password) {
    User user = users.find(username).orElseThrow();
    if (!passwordEncoder.matches(password, user.passwordHash())) {
      throw new AuthException("invalid password for " + username);
    }
    String token = tokenStore.issue(user.id(), TOKEN_TTL);
    log.debug("issued token for {}", username);
    return token;
  }
}
`;
    const r = vetText(source);
    assert.equal(r.text, source);
    assert.deepEqual(r.flags, []);
  });
});
