package wifi.kc;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Keeps svc-admin secrets (webhook secrets, the per-realm citizen-number salt) out of realm
 * storage in clear: values are sealed with AES-256-GCM under a server key that is not part of
 * the realm (env SVC_ADMIN_SEAL_KEY), so a realm export carries ciphertext only. A sealed value
 * never goes back to JS in clear; JS can only ask for an HMAC keyed by it.
 */
final class SecretSealer {

    private static final String PREFIX = "sealed:v1:";
    static final String SETTING = "SVC_ADMIN_SEAL_KEY";
    private static final String DEVELOPMENT_KEY = "dev-svc-admin-seal-key";
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final SecretKeySpec KEY = serverKey();

    private SecretSealer() {
    }

    private static SecretKeySpec serverKey() {
        String configured = System.getenv(SETTING);
        String material = configured == null || configured.isEmpty() ? DEVELOPMENT_KEY : configured;
        try {
            byte[] key = MessageDigest.getInstance("SHA-256").digest(material.getBytes(StandardCharsets.UTF_8));
            return new SecretKeySpec(key, "AES");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The setting is unset (the development key is used) or is the development key itself. */
    static boolean isDevelopmentKey(String configured) {
        return configured == null || configured.isEmpty() || DEVELOPMENT_KEY.equals(configured);
    }

    static String seal(byte[] plain) {
        try {
            byte[] iv = new byte[12];
            RANDOM.nextBytes(iv);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, KEY, new GCMParameterSpec(128, iv));
            byte[] sealed = cipher.doFinal(plain);
            byte[] out = new byte[iv.length + sealed.length];
            System.arraycopy(iv, 0, out, 0, iv.length);
            System.arraycopy(sealed, 0, out, iv.length, sealed.length);
            return PREFIX + Base64.getEncoder().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("seal failed", e);
        }
    }

    static String sealText(String plain) {
        return seal(plain.getBytes(StandardCharsets.UTF_8));
    }

    static String sealRandom(int bytes) {
        byte[] secret = new byte[bytes];
        RANDOM.nextBytes(secret);
        return seal(secret);
    }

    /** Base64 HMAC-SHA256 keyed by the sealed value over the given byte chunks; null when unreadable. */
    static String hmac(String sealed, byte[]... chunks) {
        byte[] key = open(sealed);
        if (key == null) {
            return null;
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            for (byte[] chunk : chunks) {
                mac.update(chunk);
            }
            return Base64.getEncoder().encodeToString(mac.doFinal());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("hmac failed", e);
        }
    }

    private static byte[] open(String sealed) {
        if (sealed == null || !sealed.startsWith(PREFIX)) {
            return null;
        }
        try {
            byte[] raw = Base64.getDecoder().decode(sealed.substring(PREFIX.length()));
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, KEY, new GCMParameterSpec(128, raw, 0, 12));
            return cipher.doFinal(raw, 12, raw.length - 12);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return null;
        }
    }
}
