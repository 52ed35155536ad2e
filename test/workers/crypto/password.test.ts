import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { hashPassword, MIN_PEPPER_LENGTH, PASSWORD_ITERATIONS, PepperError, verifyPassword } from "../../../src/crypto/password";
import { legacyPasswordHash } from "../support/passwords";

const PEPPER = env.PASSWORD_PEPPER!;
const OTHER_PEPPER = "another-password-pepper-of-32-characters";

describe("password hashes with a pepper (HMAC-SHA-256 under PASSWORD_PEPPER, then PBKDF2)", () => {
  it("marks a peppered hash as such, and it verifies the password and nothing else", async () => {
    const hash = await hashPassword("correct horse battery", PEPPER);
    expect(hash).toMatch(new RegExp(`^peppered-pbkdf2-sha256\\$${PASSWORD_ITERATIONS}\\$[\\w-]{22}\\$[\\w-]{43}$`));
    expect(await verifyPassword("correct horse battery", hash, PEPPER)).toBe(true);
    expect(await verifyPassword("correct horse battery!", hash, PEPPER)).toBe(false);
    expect(await verifyPassword("correct horse battery", null, PEPPER)).toBe(false);
  });

  it("does not verify a hash made under another pepper: a copy of D1 alone cannot test guesses", async () => {
    const elsewhere = await hashPassword("correct horse battery", OTHER_PEPPER);
    expect(await verifyPassword("correct horse battery", elsewhere, PEPPER)).toBe(false);
    expect(await verifyPassword("correct horse battery", await hashPassword("correct horse battery", PEPPER), OTHER_PEPPER)).toBe(false);
  });

  it("still verifies a hash stored before the pepper (pbkdf2-sha256$…), and only its own password", async () => {
    const legacy = await legacyPasswordHash("stored before the pepper");
    expect(await verifyPassword("stored before the pepper", legacy, PEPPER)).toBe(true);
    expect(await verifyPassword("stored after the pepper", legacy, PEPPER)).toBe(false);
  });

  it(`refuses to hash or verify without a pepper of at least ${MIN_PEPPER_LENGTH} characters, saying which secret`, async () => {
    const stored = await hashPassword("correct horse battery", PEPPER);
    for (const pepper of [undefined, "", "p".repeat(MIN_PEPPER_LENGTH - 1)]) {
      await expect(hashPassword("correct horse battery", pepper)).rejects.toThrow(PepperError);
      await expect(verifyPassword("correct horse battery", stored, pepper)).rejects.toThrow(/PASSWORD_PEPPER must be set/);
      await expect(verifyPassword("correct horse battery", null, pepper)).rejects.toThrow(PepperError);
    }
    expect(await hashPassword("correct horse battery", "p".repeat(MIN_PEPPER_LENGTH))).toMatch(/^peppered-pbkdf2-sha256\$/);
  });
});
