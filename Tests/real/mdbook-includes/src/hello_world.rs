pub fn main() {
    println!("Hello, World")
}
