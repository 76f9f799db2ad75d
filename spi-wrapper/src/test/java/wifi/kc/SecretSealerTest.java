package wifi.kc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;

class SecretSealerTest {

    private static final byte[] TEXT = "body".getBytes(StandardCharsets.UTF_8);

    private static String hmacWith(String key) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return Base64.getEncoder().encodeToString(mac.doFinal(TEXT));
    }

    @Test
    void aSealedSecretKeysTheSameHmacAsTheSecretInClear() throws Exception {
        String sealed = SecretSealer.sealText("webhook-secret-0123456789");
        assertFalse(sealed.contains("webhook-secret"));
        assertEquals(hmacWith("webhook-secret-0123456789"), SecretSealer.hmac(sealed, TEXT));
    }

    @Test
    void sealingTwiceGivesDifferentCiphertexts() {
        assertNotEquals(SecretSealer.sealText("same"), SecretSealer.sealText("same"));
    }

    @Test
    void aTamperedSealedValueIsRefused() {
        String sealed = SecretSealer.sealText("webhook-secret-0123456789");
        byte[] raw = Base64.getDecoder().decode(sealed.substring("sealed:v1:".length()));
        raw[raw.length - 1] ^= 1;
        assertNull(SecretSealer.hmac("sealed:v1:" + Base64.getEncoder().encodeToString(raw), TEXT));
    }

    @Test
    void valuesThatAreNotSealedAreRefused() {
        assertNull(SecretSealer.hmac("webhook-secret-0123456789", TEXT));
        assertNull(SecretSealer.hmac("sealed:v1:not base64!", TEXT));
        assertNull(SecretSealer.hmac(null, TEXT));
    }
}
