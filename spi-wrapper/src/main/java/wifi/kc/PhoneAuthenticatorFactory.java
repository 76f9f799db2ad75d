package wifi.kc;

/** Phone number + one-time SMS code, two steps of the direct grant; all of it in the bundle (kc-extension/phone-auth). */
public final class PhoneAuthenticatorFactory extends ScriptAuthenticatorFactory {

    static final String ID = "wifi-phone-authenticator";

    public PhoneAuthenticatorFactory() {
        super(ID, "Wi-Fi phone number + SMS code", "phone-sms",
                "Direct grant: phone alone sends a one-time code by SMS; phone and code sign the customer in.",
                "phoneAuthenticatorSettings", "authenticatePhone");
    }
}
