package wifi.kc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.keycloak.provider.ProviderConfigProperty;

class EmployeeAuthenticatorFactoryTest {

    @Test
    void theFactoryDeclaresEverySettingTheBundleHoldsWithItsLabelHelpDefaultAndSecrecy() throws Exception {
        JsRuntime runtime = JsRuntime.acquire();
        try {
            List<Map<String, Object>> settings = new ObjectMapper().readValue(runtime.call("authenticatorSettings"), new TypeReference<List<Map<String, Object>>>() { });
            List<ProviderConfigProperty> declared = ScriptAuthenticatorFactory.configProperties(settings);
            assertTrue(settings.size() >= 6, "the bundle's settings are all there");
            assertEquals(settings.size(), declared.size());
            for (int i = 0; i < settings.size(); i++) {
                Map<String, Object> setting = settings.get(i);
                ProviderConfigProperty property = declared.get(i);
                boolean secret = Boolean.TRUE.equals(setting.get("secret"));
                assertEquals(setting.get("name"), property.getName());
                assertEquals(setting.get("label"), property.getLabel());
                assertEquals(setting.get("help"), property.getHelpText());
                assertEquals(setting.get("default"), property.getDefaultValue());
                assertEquals(secret, property.isSecret());
                assertEquals(secret ? ProviderConfigProperty.PASSWORD : ProviderConfigProperty.STRING_TYPE, property.getType());
            }
            assertTrue(declared.stream().anyMatch(p -> p.getName().equals("hrApiKey") && p.isSecret()), "the HR key is a secret");
        } finally {
            JsRuntime.release();
        }
    }
}
